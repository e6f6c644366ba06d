import { JsonObject } from '../core/query/query.types';
import { addMultiValuedPaths, indexedValues } from './indexed-values';
import { ValueIndex } from './value-index';

const EVENT: JsonObject = {
  id: 'ev-1',
  source: '10.0.0.1',
  timestamp: '2026-11-21T10:00:00Z',
  host: { name: 'alpha', ip: '10.0.0.9', aliases: [{ name: 'a' }, { name: 'b' }] },
  severity: 3,
  up: true,
  note: null,
  tags: ['net', ['fw']],
  'a.b': 1,
};

const rows = (index: ValueIndex) => indexedValues(EVENT, index).map((row) => `${row.path}:${row.kind}:${row.text}:${row.num}`);

describe('indexedValues', () => {
  it('without a declaration writes every value at every path, lists looked through, the id skipped', () => {
    expect(rows(ValueIndex.EVERY_PATH)).toEqual([
      'source:s:10.0.0.1:null',
      'timestamp:s:2026-11-21T10:00:00Z:null',
      'host:o:null:null',
      'host.name:s:alpha:null',
      'host.ip:s:10.0.0.9:null',
      'host.aliases:o:null:null',
      'host.aliases.name:s:a:null',
      'host.aliases:o:null:null',
      'host.aliases.name:s:b:null',
      'severity:n:3:3',
      'up:b:true:null',
      'note:z:null:null',
      'tags:s:net:null',
      'tags:s:fw:null',
    ]);
  });

  it('with a declaration writes only the declared paths', () => {
    expect(rows(ValueIndex.of(['source', 'timestamp']))).toEqual(['source:s:10.0.0.1:null', 'timestamp:s:2026-11-21T10:00:00Z:null']);
  });

  it('a declared object path brings its whole subtree, as the indexer writes it', () => {
    expect(rows(ValueIndex.of(['host.aliases', 'severity']))).toEqual([
      'host.aliases:o:null:null',
      'host.aliases.name:s:a:null',
      'host.aliases:o:null:null',
      'host.aliases.name:s:b:null',
      'severity:n:3:3',
    ]);
  });

  it('a declared nested path is reached through its undeclared ancestors and lists', () => {
    expect(rows(ValueIndex.of(['host.aliases.name']))).toEqual(['host.aliases.name:s:a:null', 'host.aliases.name:s:b:null']);
  });

  it('declaring nothing writes nothing; a key with a dot is never reachable', () => {
    expect(rows(ValueIndex.of([]))).toEqual([]);
    expect(rows(ValueIndex.of(['a']))).toEqual([]);
  });
});

describe('addMultiValuedPaths', () => {
  const multiValued = (doc: JsonObject, paths = ValueIndex.EVERY_PATH) => {
    const found = new Set<string>();
    addMultiValuedPaths(indexedValues(doc, paths), found);
    return [...found].sort();
  };

  it('names the paths one record holds two values or more at, and no other', () => {
    expect(multiValued({ id: 'a', source: 'x', timestamp: 't', size: 3 })).toEqual([]);
    expect(multiValued({ id: 'a', tags: ['x', 'y'], one: ['x'], empty: [] })).toEqual(['tags']);
    // Under a list of objects: each object is a row of `actions`, each id one of `actions.id`.
    expect(multiValued({ id: 'a', actions: [{ id: 'x' }, { id: 'y', name: 'n' }] })).toEqual(['actions', 'actions.id']);
    expect(multiValued({ id: 'a', actions: [{ id: 'x' }] })).toEqual([]);
  });

  it('looks only at the paths the index holds', () => {
    expect(multiValued({ id: 'a', tags: ['x', 'y'], source: 's' }, ValueIndex.of(['source']))).toEqual([]);
  });
});
