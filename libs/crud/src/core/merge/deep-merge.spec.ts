import { jsonEquals } from '../query/json-equality';
import { JsonObject } from '../query/query.types';
import { RecordProblems } from '../validation/record-problems';
import { mergeRecord, mergeRecordWithProblems } from './deep-merge';

function problemsOf(work: () => unknown): Record<string, string> {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(RecordProblems);
    return (error as RecordProblems).problems;
  }
  throw new Error('expected RecordProblems');
}

const deepCopy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('mergeRecord', () => {
  const stored: JsonObject = {
    id: 'firewall',
    description: 'Firewall',
    config: { cmd: 'polycubectl', env: { A: '1', B: '2' }, daemon: false },
    actions: [
      { id: 'start', status: 'started', config: { cmd: 'start', args: ['-a'] } },
      { id: 'stop', status: 'stopped' },
    ],
    tags: ['a', 'b', 'c'],
    extra: {
      list: [
        { id: 1, v: 'one' },
        { id: 2, v: 'two' },
      ],
      plain: [{ v: 1 }],
    },
  };

  it('merges objects deeply, keeping what the patch does not name', () => {
    const merged = mergeRecord(stored, { config: { env: { B: '3', C: '4' } }, description: 'New' });
    expect(merged).toEqual({
      ...stored,
      description: 'New',
      config: { cmd: 'polycubectl', env: { A: '1', B: '3', C: '4' }, daemon: false },
    });
  });

  it('adds new fields at any depth', () => {
    const merged = mergeRecord(stored, { config: { new: { deep: [1, 2] } }, added: true });
    expect((merged.config as JsonObject).new).toEqual({ deep: [1, 2] });
    expect(merged.added).toBe(true);
    expect((merged.config as JsonObject).cmd).toBe('polycubectl');
  });

  it('null removes a field, at any depth', () => {
    const merged = mergeRecord(stored, { description: null, config: { env: { A: null } } });
    expect(merged).not.toHaveProperty('description');
    expect(merged.config).toEqual({ cmd: 'polycubectl', env: { B: '2' }, daemon: false });
  });

  it('null for a missing field is a no-op; nulls inside new content are dropped', () => {
    const merged = mergeRecord(stored, { nothing: null, fresh: { a: null, b: 1, c: { d: null } } });
    expect(merged).not.toHaveProperty('nothing');
    expect(merged.fresh).toEqual({ b: 1, c: {} });
  });

  it('a scalar replaces an object and an object replaces a scalar', () => {
    expect(mergeRecord(stored, { config: 'flat' }).config).toBe('flat');
    expect(mergeRecord(stored, { description: { text: 'x', gone: null } }).description).toEqual({ text: 'x' });
  });

  describe('lists of objects with ids', () => {
    it('a known id is merged into', () => {
      const merged = mergeRecord(stored, { actions: [{ id: 'start', config: { args: ['-b'] }, status: null }] });
      expect(merged.actions).toEqual([
        { id: 'start', config: { cmd: 'start', args: ['-b'] } },
        { id: 'stop', status: 'stopped' },
      ]);
    });

    it('a new id is appended, in patch order', () => {
      const merged = mergeRecord(stored, { actions: [{ id: 'restart', status: 'unknown', note: null }, { id: 'attach' }] });
      expect(merged.actions).toEqual([...(stored.actions as JsonObject[]), { id: 'restart', status: 'unknown' }, { id: 'attach' }]);
    });

    it('{"id": "x", "$patch": "delete"} removes item x; an unknown id to delete is ignored', () => {
      const merged = mergeRecord(stored, {
        actions: [
          { id: 'start', $patch: 'delete' },
          { id: 'ghost', $patch: 'delete' },
        ],
      });
      expect(merged.actions).toEqual([{ id: 'stop', status: 'stopped' }]);
    });

    it('merge, append and delete in one patch', () => {
      const merged = mergeRecord(stored, {
        actions: [{ id: 'stop', status: 'started' }, { id: 'new' }, { id: 'start', $patch: 'delete' }],
      });
      expect(merged.actions).toEqual([{ id: 'stop', status: 'started' }, { id: 'new' }]);
    });

    it('works for any such list in additional data, with non-string ids', () => {
      const merged = mergeRecord(stored, {
        extra: {
          list: [
            { id: 2, v: 'TWO' },
            { id: '1', v: 'string one' },
          ],
        },
      });
      expect((merged.extra as JsonObject).list).toEqual([
        { id: 1, v: 'one' },
        { id: 2, v: 'TWO' },
        { id: '1', v: 'string one' },
      ]);
    });

    it('an id list into a missing field starts from empty', () => {
      const merged = mergeRecord({ id: 'x' }, { parameters: [{ id: 'p', type: 'string', gone: null }] });
      expect(merged.parameters).toEqual([{ id: 'p', type: 'string' }]);
    });

    it('$patch other than delete is refused', () => {
      expect(problemsOf(() => mergeRecord(stored, { actions: [{ id: 'start', $patch: 'replace' }] }))).toEqual({
        'actions.$patch': 'must be "delete"',
      });
    });
  });

  describe('other lists are replaced whole', () => {
    it('lists of scalars', () => {
      expect(mergeRecord(stored, { tags: ['z'] }).tags).toEqual(['z']);
      expect(mergeRecord(stored, { tags: [] }).tags).toEqual([]);
    });

    // Merging by id needs a stored list of items with ids: objects appended to scalars would make a list of neither.
    it('a stored list of anything but id items, even under a patch list whose items carry ids', () => {
      expect(mergeRecord(stored, { tags: [{ id: 'z', v: 1 }] }).tags).toEqual([{ id: 'z', v: 1 }]);
      expect(mergeRecord(stored, { extra: { plain: [{ id: 'z' }] } }).extra).toEqual({
        ...(stored.extra as JsonObject),
        plain: [{ id: 'z' }],
      });
      expect(mergeRecord({ id: 'x', mixed: [{ id: 'a' }, 'b'] }, { mixed: [{ id: 'a', v: 1 }] }).mixed).toEqual([{ id: 'a', v: 1 }]);
    });

    it('lists of objects without ids, or with only some ids', () => {
      expect((mergeRecord(stored, { extra: { plain: [{ v: 2 }] } }).extra as JsonObject).plain).toEqual([{ v: 2 }]);
      expect(mergeRecord(stored, { actions: [{ id: 'start' }, { name: 'no id' }] }).actions).toEqual([{ id: 'start' }, { name: 'no id' }]);
    });

    it('an empty list replaces an id list', () => {
      expect(mergeRecord(stored, { actions: [] }).actions).toEqual([]);
    });
  });

  it('does not modify its inputs', () => {
    const storedCopy = deepCopy(stored);
    const patch: JsonObject = {
      description: null,
      config: { env: { A: null, Z: '9' } },
      actions: [
        { id: 'start', config: { args: ['x'] } },
        { id: 'stop', $patch: 'delete' },
        { id: 'new', x: null },
      ],
      tags: ['q'],
    };
    const patchCopy = deepCopy(patch);
    const merged = mergeRecord(stored, patch);
    expect(stored).toEqual(storedCopy);
    expect(patch).toEqual(patchCopy);
    // Mutating the result does not reach back into the inputs either.
    ((merged.actions as JsonObject[])[0].config as JsonObject).cmd = 'changed';
    (merged.config as JsonObject).cmd = 'changed';
    expect(stored).toEqual(storedCopy);
  });

  describe('reserved $ keys', () => {
    it.each([
      [{ $set: 1 }, '$set'],
      [{ config: { $inc: 1 } }, 'config.$inc'],
      [{ fresh: { deep: { $x: 1 } } }, 'fresh.deep.$x'],
      [{ actions: [{ id: 'new', $meta: 1 }] }, 'actions.$meta'],
      [{ actions: [{ id: 'start', $meta: 1 }] }, 'actions.$meta'],
    ])('%j is refused at %s', (patch, path) => {
      const problems = problemsOf(() => mergeRecord(stored, patch));
      expect(Object.keys(problems)).toEqual([path]);
      expect(problems[path]).toMatch(/reserved/);
    });
  });

  describe('every problem of a patch at once', () => {
    const patch: JsonObject = {
      $set: 1,
      config: { $inc: 1, cmd: 'new' },
      actions: [
        { id: 'start', $patch: 'replace' },
        { id: 'stop', status: 'x' },
      ],
    };

    it('mergeRecord throws them all', () => {
      expect(problemsOf(() => mergeRecord(stored, patch))).toEqual({
        $set: expect.stringMatching(/reserved/) as string,
        'config.$inc': expect.stringMatching(/reserved/) as string,
        'actions.$patch': 'must be "delete"',
      });
    });

    it('mergeRecordWithProblems answers them beside the merge of the rest, which leaves their parts out', () => {
      const { merged, problems } = mergeRecordWithProblems(stored, patch);
      expect(Object.keys(problems)).toEqual(['$set', 'config.$inc', 'actions.$patch']);
      expect(merged).toEqual({
        ...stored,
        config: { ...(stored.config as JsonObject), cmd: 'new' },
        actions: [(stored.actions as JsonObject[])[0], { id: 'stop', status: 'x' }],
      });
    });

    it('answers no problems for a patch that has none', () => {
      expect(mergeRecordWithProblems(stored, { description: 'x' }).problems).toEqual({});
    });
  });

  describe('prototype keys', () => {
    afterEach(() => {
      // Keep a failure of this test from leaking into others.
      delete (Object.prototype as Record<string, unknown>).polluted;
    });

    it('a parsed "__proto__" key does not pollute Object.prototype', () => {
      const patch = JSON.parse('{"__proto__": {"polluted": "yes"}, "config": {"__proto__": {"polluted": "yes"}}}') as JsonObject;
      expect(Object.prototype.hasOwnProperty.call(patch, '__proto__')).toBe(true);
      const merged = mergeRecord(stored, patch);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
      // The merged record and its parts keep plain prototypes and carry the key as data.
      expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
      expect(Object.getPrototypeOf(merged.config)).toBe(Object.prototype);
      expect((merged as Record<string, unknown>).polluted).toBeUndefined();
      expect(JSON.parse(JSON.stringify(merged))).toEqual(
        JSON.parse(
          `{${JSON.stringify(stored)
            .slice(1, -1)
            .replace(/"config":\{/, '"config":{"__proto__":{"polluted":"yes"},')},"__proto__":{"polluted":"yes"}}`,
        ),
      );
    });

    it('"constructor" and "prototype" keys are plain data', () => {
      const patch = JSON.parse('{"constructor": {"prototype": {"polluted": "yes"}}}') as JsonObject;
      const merged = mergeRecord(stored, patch);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(merged.constructor).toEqual({ prototype: { polluted: 'yes' } });
      expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    });
  });

  describe('a no-op update is detectable with jsonEquals', () => {
    it.each([
      ['the same values', { description: 'Firewall', config: { cmd: 'polycubectl' } }],
      ['an id item with the same content', { actions: [{ id: 'stop', status: 'stopped' }] }],
      ['removing a missing field', { nothing: null }],
      ['deleting an unknown id item', { actions: [{ id: 'ghost', $patch: 'delete' }] }],
      ['the same list, replaced whole', { tags: ['a', 'b', 'c'] }],
      ['an empty patch', {}],
    ])('%s', (_name, patch) => {
      expect(jsonEquals(mergeRecord(stored, patch as JsonObject), stored)).toBe(true);
    });

    it.each([
      ['a changed value', { description: 'firewall' }],
      ['a removed field', { description: null }],
      ['a reordered list', { tags: ['c', 'b', 'a'] }],
      ['a new id item', { actions: [{ id: 'x' }] }],
      ['a number for a string', { config: { daemon: 0 } }],
    ])('not for %s', (_name, patch) => {
      expect(jsonEquals(mergeRecord(stored, patch as JsonObject), stored)).toBe(false);
    });
  });
});
