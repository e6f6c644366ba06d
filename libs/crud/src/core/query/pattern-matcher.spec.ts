import {
  beyondPrefix,
  compilePattern,
  holdsRequired,
  literalPrefix,
  regExpMatcher,
  REQUIRED_TEXTS_KEPT,
  requiredTexts,
} from './pattern-matcher';

describe('literalPrefix', () => {
  it.each([
    ['host-00012[0-9]', 'host-00012'],
    ['host-.*', 'host-'],
    ['error', 'error'],
    ['ab*c', 'a'],
    ['ab?c', 'a'],
    ['ab+c', 'a'],
    ['ab{2}c', 'a'],
    ['a\\.b', 'a'],
    ['abc(?i)def', 'abc'],
    ['(?i)abc', ''],
    ['abc|abd', ''],
    ['a(b|c)d', ''],
    ['^abc', ''],
    ['.*abc', ''],
    ['[a]bc', ''],
    ['', ''],
    ['é😀x.', 'é😀x'],
    ['😀*', ''],
  ])('%j begins every match with %j', (pattern, prefix) => {
    expect(literalPrefix(pattern)).toBe(prefix);
  });

  // Every text a pattern matches starts with its prefix: the index may only narrow, never lose.
  it('is a prefix of every match', () => {
    const patterns = ['ab*c', 'ab?c', 'ab+c', 'ab{0,2}c', 'abc(?i)DEF', 'a\\.b', 'x(y|z)', 'xy|zw', 'h-[0-9]+', 'é?é', '10\\.0\\..*'];
    const texts = ['ac', 'abc', 'abbc', 'abcdef', 'abcDEF', 'a.b', 'xy', 'xz', 'zw', 'h-12', 'é', 'éé', '10.0.0.1', 'AbC'];
    let matched = 0;
    for (const pattern of patterns) {
      const matches = regExpMatcher(pattern);
      for (const text of texts) {
        if (!matches(text)) continue;
        matched++;
        expect([pattern, text.startsWith(literalPrefix(pattern))]).toEqual([pattern, true]);
      }
    }
    expect(matched).toBeGreaterThan(10);
  });
});

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike'];
const MORE_WORDS = [...WORDS, 'november', 'oscar', 'papa', 'quebec'];

describe('requiredTexts', () => {
  it.each([
    ['.*-00012[0-9]', '-00012'],
    ['error', 'error'],
    ['a.*b.*c', { all: ['a', 'b', 'c'] }],
    ['(?:alpha|bravo)x', { all: [{ any: ['alpha', 'bravo'] }, 'x'] }],
    ['(?:.*l(?:ph|ta))+.*', { all: ['l', { any: ['ph', 'ta'] }] }],
    ['(?:ab)*c', 'c'],
    ['a{0,3}bc', 'bc'],
    ['(ab)+', 'ab'],
    ['[]a]bc', 'bc'],
    ['\\Q(\\Eab', '(ab'],
    ['x\\.y', 'x.y'],
    ['abc(?i)def', 'abc'],
    ['é😀x', 'é😀x'],
    ['.*\u0001.*', '\u0001'],
    // Nothing every match holds: no literal, an optional one, an alternative without one, case folding.
    ['.*', undefined],
    ['', undefined],
    ['[a-z]+', undefined],
    ['a?', undefined],
    ['ab|.*', undefined],
    ['(?i)abc', undefined],
    ['.*(?i:PH).*', undefined],
  ])('%j: %j', (pattern, required) => {
    expect(requiredTexts(pattern)).toEqual(required);
  });

  it(`keeps ${REQUIRED_TEXTS_KEPT} texts at most: some of all of them, none of any of too many`, () => {
    const letters = 'abcdefghijklmnopqrst'.split('');
    expect(requiredTexts(letters.join('.*'))).toEqual({ all: letters.slice(0, REQUIRED_TEXTS_KEPT) });
    expect(requiredTexts(`(?:${MORE_WORDS.join('|')})`)).toBeUndefined();
    expect(requiredTexts(`(?:${MORE_WORDS.join('|')})x`)).toBe('x');
    expect(requiredTexts(`(?:${WORDS.join('|')})`)).toEqual({ any: WORDS });
  });

  // The texts only narrow: whatever RE2 matches holds them, and the matcher answers as RE2 does.
  it('is held by every match, and leaves every answer as RE2 gives it', () => {
    const patterns = [
      '.*-00012[0-9]',
      'a.*b.*c',
      '(?:alpha|bravo)x',
      '(?:.*l(?:ph|ta))+.*',
      '(?:ab)*c',
      'a{0,3}bc',
      '[]a]bc',
      'x\\.y',
      'abc(?i)def',
      '(?s).*1.l.*',
      `(?:${WORDS.join('|')})`,
    ];
    const texts = [
      'host-000123',
      'host-00012',
      'abc',
      'aXbYc',
      'cba',
      'alphax',
      'bravox',
      'x',
      'alta',
      'lph',
      'ababc',
      'c',
      'bc',
      'aaabc',
      ']bc',
      'abc',
      'x.y',
      'xzy',
      'abcDEF',
      'abcdef',
      'ABCdef',
      '1\nl',
      '1.l',
      'mike',
      'mik',
      '',
    ];
    let matched = 0;
    for (const pattern of patterns) {
      const required = requiredTexts(pattern);
      const program = compilePattern(pattern);
      const matches = regExpMatcher(pattern);
      expect(required).toBeDefined();
      for (const text of texts) {
        expect([pattern, text, matches(text)]).toEqual([pattern, text, program.matches(text)]);
        if (!program.matches(text)) continue;
        matched++;
        expect([pattern, text, holdsRequired(required!, text)]).toEqual([pattern, text, true]);
      }
    }
    expect(matched).toBeGreaterThan(15);
  });
});

describe('beyondPrefix', () => {
  it.each([
    [{ all: ['2026-11-21T00:01:', '5Z'] }, '2026-11-21T00:01:', '5Z'],
    ['host-', 'host-0', undefined],
    [{ any: ['ab', 'zz'] }, 'xab', undefined],
    [{ any: ['ab', 'zz'] }, 'x', { any: ['ab', 'zz'] }],
    [{ all: ['a', 'b', 'c'] }, 'ab', 'c'],
    ['x', '', 'x'],
  ])('%j past %j: %j', (required, prefix, left) => {
    expect(beyondPrefix(required, prefix)).toEqual(left);
  });
});
