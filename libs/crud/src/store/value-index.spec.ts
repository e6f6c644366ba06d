import { learnedPathsSetting, parseLearnedPaths, ValueIndex, withPathBuilding, withPathReady, WriteIndexes } from './value-index';

describe('ValueIndex', () => {
  const declared = ValueIndex.of(['source', 'host.name']);

  it('covers declared paths and everything below them, nothing else', () => {
    expect(declared.covers(['source'])).toBe(true);
    expect(declared.covers(['source', 'city'])).toBe(true);
    expect(declared.covers(['host', 'name'])).toBe(true);
    expect(declared.covers(['host', 'name', 'first'])).toBe(true);
    expect(declared.covers(['host'])).toBe(false);
    expect(declared.covers(['host', 'ip'])).toBe(false);
    expect(declared.covers(['sources'])).toBe(false);
    expect(declared.covers(['timestamp'])).toBe(false);
  });

  it('without a declaration covers every path up to the length limit', () => {
    expect(ValueIndex.EVERY_PATH.covers(['anything', 'at', 'all'])).toBe(true);
    expect(ValueIndex.EVERY_PATH.covers(['x'.repeat(257)])).toBe(false);
    expect(ValueIndex.of(undefined)).toBe(ValueIndex.EVERY_PATH);
  });

  it('an empty declaration covers nothing', () => {
    expect(ValueIndex.of([]).covers(['source'])).toBe(false);
  });

  it('tells the indexer to walk through ancestors of declared paths without writing them', () => {
    expect(declared.holds('host', false)).toBe(false);
    expect(declared.leadsTo('host')).toBe(true);
    expect(declared.holds('host.name', false)).toBe(true);
    expect(declared.holds('host.name.first', true)).toBe(true);
    expect(declared.leadsTo('source')).toBe(false);
    expect(declared.leadsTo('payload')).toBe(false);
    expect(declared.holds('payload', false)).toBe(false);
  });

  it('refuses a malformed declaration at start-up', () => {
    expect(() => ValueIndex.of(['host..name'])).toThrow(/indexedPaths: .*empty segment/);
    expect(() => ValueIndex.of(['__proto__'])).toThrow(/indexedPaths: .*reserved/);
  });

  it('round-trips through its setting, in a stable order', () => {
    expect(ValueIndex.of(['timestamp', 'source']).toSetting()).toBe('["source","timestamp"]');
    expect(ValueIndex.fromSetting('["source","timestamp"]').toSetting()).toBe('["source","timestamp"]');
    expect(ValueIndex.EVERY_PATH.toSetting()).toBe('*');
    expect(ValueIndex.fromSetting('*')).toBe(ValueIndex.EVERY_PATH);
    // No setting: data written before declarations existed, when every path was indexed.
    expect(ValueIndex.fromSetting(undefined)).toBe(ValueIndex.EVERY_PATH);
  });

  it('includes another index only when its rows serve every path the other holds', () => {
    expect(ValueIndex.EVERY_PATH.includes(declared)).toBe(true);
    expect(declared.includes(ValueIndex.EVERY_PATH)).toBe(false);
    expect(declared.includes(ValueIndex.of(['source']))).toBe(true);
    expect(declared.includes(ValueIndex.of(['host.name.first', 'source.city']))).toBe(true);
    expect(declared.includes(ValueIndex.of(['host']))).toBe(false);
    expect(declared.includes(ValueIndex.of(['source', 'timestamp']))).toBe(false);
    expect(declared.includes(ValueIndex.of([]))).toBe(true);
  });
});

describe('WriteIndexes', () => {
  const declared = ValueIndex.of(['source']);

  it('adds the learned paths of the setting, and makes the index again only when the setting or the declaration changed', () => {
    const indexes = new WriteIndexes();
    const none = indexes.of('event', declared, undefined);
    expect(none).toBe(declared);
    const learned = learnedPathsSetting({ building: ['flow'], ready: [] });
    const withFlow = indexes.of('event', declared, learned);
    expect(withFlow.covers(['flow'])).toBe(true);
    expect(indexes.of('event', declared, learned)).toBe(withFlow);
    const other = ValueIndex.of(['timestamp']);
    const otherWithFlow = indexes.of('event', other, learned);
    expect(otherWithFlow.covers(['timestamp'])).toBe(true);
    expect(otherWithFlow.covers(['source'])).toBe(false);
    expect(indexes.of('data', declared, undefined)).toBe(declared);
  });

  it('tells the setting a family last read and its index, for the declaration it was made with only', () => {
    const indexes = new WriteIndexes();
    expect(indexes.lastRead('event', declared)).toBeUndefined();
    const learned = learnedPathsSetting({ building: [], ready: ['flow'] });
    const index = indexes.of('event', declared, learned);
    expect(indexes.lastRead('event', declared)).toEqual({ setting: learned, index, base: declared });
    expect(indexes.lastRead('event', ValueIndex.of(['timestamp']))).toBeUndefined();
  });
});

describe('learned paths as a store answers them', () => {
  it('are sorted whatever order paths were learned in or their builds ended in, as the stored setting reads back', () => {
    const learning = withPathBuilding(withPathBuilding({ building: [], ready: [] }, 'b'), 'a');
    expect(learning).toEqual({ building: ['a', 'b'], ready: [] });
    const bEndsFirst = withPathReady(withPathReady(learning, 'b'), 'a');
    expect(bEndsFirst).toEqual({ building: [], ready: ['a', 'b'] });
    expect(parseLearnedPaths(learnedPathsSetting(bEndsFirst))).toEqual(bEndsFirst);
    expect(withPathReady(learning, 'b')).toEqual({ building: ['a'], ready: ['b'] });
  });
});
