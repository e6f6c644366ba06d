import { FieldPath, JsonObject } from '../core/query/query.types';
import { prototypeSnapshot } from '../../../../test/support/prototype-snapshot';
import { projectRecord } from './record-projection';

const RECORD: JsonObject = {
  id: 'r1',
  x: 3,
  b: 5,
  a: { b: 1, c: { d: 2 } },
  list: [{ k: 1, j: 2 }, { j: 3 }, 'text', [{ k: 4 }]],
};

const paths = (...dotted: string[]): FieldPath[] => dotted.map((path) => path.split('.'));
const project = (...dotted: string[]) => JSON.stringify(projectRecord(RECORD, paths(...dotted)));

describe('projectRecord', () => {
  it('keeps the named paths nested as stored, in stored key order, with the id first as stored', () => {
    expect(project('a.c.d', 'x')).toBe('{"id":"r1","x":3,"a":{"c":{"d":2}}}');
    expect(project('list.k')).toBe('{"id":"r1","list":[{"k":1},[{"k":4}]]}');
  });

  it('is exact: a path below one kept whole adds nothing, in either order', () => {
    expect(project('a', 'a.b')).toBe('{"id":"r1","a":{"b":1,"c":{"d":2}}}');
    expect(project('a.b', 'a')).toBe('{"id":"r1","a":{"b":1,"c":{"d":2}}}');
    expect(project('id.x')).toBe('{"id":"r1"}');
    expect(project('id.x', 'b.x')).toBe('{"id":"r1"}');
    expect(project('a.c.d.e')).toBe('{"id":"r1"}');
  });

  it('answers only the id when nothing named is there', () => {
    expect(project('nope', 'a.nope')).toBe('{"id":"r1"}');
  });

  it('treats names of inherited properties as ordinary, absent fields and changes no prototype', () => {
    const before = prototypeSnapshot();
    for (const name of ['hasOwnProperty', 'toString', 'valueOf', 'constructor', '__proto__', 'prototype', 'length', 'name', 'call']) {
      for (const dotted of [
        name,
        `${name}.polluted`,
        `${name}.call.x`,
        `${name}.name`,
        `toString.${name}`,
        `a.${name}`,
        `list.${name}.x`,
      ]) {
        expect(project(dotted)).toBe('{"id":"r1"}');
        expect(project(dotted, `${dotted}.deeper`, 'x')).toBe('{"id":"r1","x":3}');
      }
    }
    expect(prototypeSnapshot()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps such names when a record does hold them as own keys, as plain keys', () => {
    const record = JSON.parse('{"id":"r2","__proto__":{"polluted":1},"constructor":{"name":"x"},"toString":"t"}') as JsonObject;
    const projected = projectRecord(record, paths('__proto__.polluted', 'constructor.name', 'toString'));
    expect(JSON.stringify(projected)).toBe('{"id":"r2","__proto__":{"polluted":1},"constructor":{"name":"x"},"toString":"t"}');
    expect(Object.getPrototypeOf(projected)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
