import { generateRecordId, MAX_ID_LENGTH, recordIdProblem } from './record-id';

describe('recordIdProblem', () => {
  it.each(['p2p', 'firewall', 'a', 'x'.repeat(256), 'with space', 'ünïcode-😀', 'a_b', 'a.b', 'a:b@c', '0', 'Slice-01'])(
    'accepts %p',
    (id) => {
      expect(recordIdProblem(id)).toBeUndefined();
    },
  );

  it('limit is 256 characters', () => {
    expect(MAX_ID_LENGTH).toBe(256);
    expect(recordIdProblem('x'.repeat(257))).toBe('must be at most 256 characters');
  });

  it('counts Unicode code points, not UTF-16 units', () => {
    expect(recordIdProblem('😀'.repeat(256))).toBeUndefined();
    expect(recordIdProblem('😀'.repeat(257))).toBe('must be at most 256 characters');
    expect(recordIdProblem(`${'😀'.repeat(200)}${'x'.repeat(56)}`)).toBeUndefined();
    expect(recordIdProblem(`${'😀'.repeat(200)}${'x'.repeat(57)}`)).toBe('must be at most 256 characters');
    expect(recordIdProblem('x'.repeat(1_000_000))).toBe('must be at most 256 characters');
  });

  it.each(['X\ud800', 'X\udbff', 'X\udc00', '\udc00\ud800', 'a\ud83d'])('refuses the lone surrogate in %s', (escaped) => {
    expect(recordIdProblem(JSON.parse(`"${escaped}"`))).toBe('must not contain a lone UTF-16 surrogate');
  });

  it('accepts U+FFFD, which a lone surrogate would otherwise become', () => {
    expect(recordIdProblem('X\ufffd')).toBeUndefined();
  });

  it.each(['.', '..'])('refuses the path segment %j', (id) => {
    expect(recordIdProblem(id)).toBe('must not be "." or ".."');
  });

  it.each(['...', '.a', 'a.', './', '. '])('accepts %j, which is not a dot segment', (id) => {
    expect(recordIdProblem(id)).toBe(id.includes('/') ? 'must not contain "/"' : undefined);
  });

  it.each([
    ['', 'must not be empty'],
    ['a/b', 'must not contain "/"'],
    ['/', 'must not contain "/"'],
    ['a\u0000b', 'must not contain control characters'],
    ['a\nb', 'must not contain control characters'],
    ['tab\t', 'must not contain control characters'],
    ['del\u007f', 'must not contain control characters'],
    ['c1\u0085', 'must not contain control characters'],
    ['_hidden', 'must not start with "_"'],
    ['_', 'must not start with "_"'],
  ])('refuses %j: %s', (id, reason) => {
    expect(recordIdProblem(id)).toBe(reason);
  });

  it.each([[5], [null], [undefined], [true], [{}], [['a']]])('refuses the non-string %p', (id) => {
    expect(recordIdProblem(id)).toBe('must be a string');
  });
});

describe('generateRecordId', () => {
  const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('is a UUIDv7: version nibble 7, variant bits 10', () => {
    for (let i = 0; i < 100; i++) {
      const id = generateRecordId();
      expect(id).toMatch(UUID_V7);
      const hex = id.replace(/-/g, '');
      expect(parseInt(hex[12], 16)).toBe(7);
      expect(parseInt(hex[16], 16) >> 2).toBe(0b10);
      expect(recordIdProblem(id)).toBeUndefined();
      expect(encodeURIComponent(id)).toBe(id);
    }
  });

  it('carries the current Unix time in milliseconds in its first 48 bits', () => {
    const before = Date.now();
    const id = generateRecordId();
    const after = Date.now();
    const millis = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    // The counter may run a few milliseconds ahead of the clock after a burst, never behind.
    expect(millis).toBeGreaterThanOrEqual(before);
    expect(millis).toBeLessThanOrEqual(after + 100);
  });

  it('10,000 ids are unique and strictly increasing as strings, in generation order', () => {
    const ids = Array.from({ length: 10_000 }, () => generateRecordId());
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) {
      if (!(ids[i - 1] < ids[i])) throw new Error(`ids[${i - 1}]=${ids[i - 1]} is not below ids[${i}]=${ids[i]}`);
    }
    expect([...ids].sort()).toEqual(ids);
  });

  it('stays increasing when the clock goes backwards', () => {
    const realNow = Date.now;
    const start = realNow();
    try {
      const ids: string[] = [];
      Date.now = () => start + 1000;
      ids.push(generateRecordId(), generateRecordId());
      Date.now = () => start + 10;
      ids.push(generateRecordId(), generateRecordId());
      Date.now = () => start + 2000;
      ids.push(generateRecordId());
      for (let i = 1; i < ids.length; i++) expect(ids[i - 1] < ids[i]).toBe(true);
      expect(parseInt(ids[4].replace(/-/g, '').slice(0, 12), 16)).toBe(start + 2000);
    } finally {
      Date.now = realNow;
    }
  });

  it('stays increasing past 4096 ids in one frozen millisecond', () => {
    const realNow = Date.now;
    const frozen = realNow() + 5000;
    try {
      Date.now = () => frozen;
      let previous = generateRecordId();
      for (let i = 0; i < 9000; i++) {
        const next = generateRecordId();
        if (!(previous < next)) throw new Error(`${previous} is not below ${next} at ${i}`);
        previous = next;
      }
    } finally {
      Date.now = realNow;
    }
  });
});
