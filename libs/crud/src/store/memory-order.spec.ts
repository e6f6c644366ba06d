import { parseRecordQuery } from '../core/query/query-parser';
import { JsonObject } from '../core/query/query.types';
import { FirstRanked, MemoryOrder, Ranked } from './memory-order';

const orderOf = (order: unknown) => new MemoryOrder(parseRecordQuery({ order }, { allowSelect: true }).order);

describe('MemoryOrder', () => {
  it('keys a path by its smallest number and text ascending, its largest descending, as the index does', () => {
    const doc: JsonObject = { id: 'x', v: [5, 50, 'b', true, null, { n: 1 }, ['a']] };
    // Numbers and booleans also count by their JSON text, as the value index stores them.
    expect(orderOf({ target: 'v', mode: 'asc' }).rank(1, 'x', doc).keys).toEqual([5, '5']);
    expect(orderOf({ target: 'v', mode: 'desc' }).rank(1, 'x', doc).keys).toEqual([50, 'true']);
    expect(orderOf({ target: 'missing' }).rank(1, 'x', doc).keys).toEqual([null, null]);
    expect(orderOf([{ target: 'id' }, { target: 'v.n' }]).rank(1, 'x', doc).keys).toEqual(['x', 1, '1']);
  });

  it('compares text by code point, as UTF-8 bytes compare in both databases', () => {
    const order = orderOf({ target: 's' });
    const astral = order.rank(1, 'a', { s: '😀' });
    const bmpHigh = order.rank(2, 'b', { s: '\uFF01' });
    expect(order.compare(bmpHigh, astral)).toBeLessThan(0);
  });

  it('puts records without the value last in both directions, ties in arrival order', () => {
    for (const mode of ['asc', 'desc']) {
      const order = orderOf({ target: 'n', mode });
      const none = order.rank(1, 'a', {});
      const one = order.rank(2, 'b', { n: 1 });
      const otherOne = order.rank(3, 'c', { n: 1 });
      expect(order.compare(one, none)).toBeLessThan(0);
      expect(order.compare(none, one)).toBeGreaterThan(0);
      expect(order.compare(one, otherOne)).toBeLessThan(0);
    }
  });
});

describe('FirstRanked', () => {
  it('keeps the first entries of any number offered, in order', () => {
    const order = orderOf({ target: 'n', mode: 'desc' });
    const entries: Ranked[] = Array.from({ length: 1000 }, (_, i) => order.rank(i + 1, `r${i}`, { n: (i * 7919) % 1000 }));
    const first = new FirstRanked(10, order);
    for (const entry of entries) first.offer(entry);
    const expected = [...entries].sort((a, b) => order.compare(a, b)).slice(0, 10);
    expect(first.sorted()).toEqual(expected);
    expect(expected[0].keys[0]).toBe(999);
  });

  it('answers fewer when fewer are offered', () => {
    const order = orderOf({ target: 'n' });
    const first = new FirstRanked(10, order);
    first.offer(order.rank(2, 'b', { n: 2 }));
    first.offer(order.rank(1, 'a', { n: 3 }));
    expect(first.sorted().map((entry) => entry.seq)).toEqual([2, 1]);
  });
});

describe('FirstRanked.drain', () => {
  it('answers what sorted() does, pausing whenever the slice is spent', () => {
    const order = orderOf({ target: 'n', mode: 'asc' });
    const offerAll = () => {
      const first = new FirstRanked(300, order);
      for (let i = 0; i < 1000; i++) first.offer(order.rank(i + 1, `r${i}`, { n: (i * 7919) % 500 }));
      return first;
    };
    const expected = offerAll().sorted();
    expect(expected).toHaveLength(300);
    const steps = offerAll().drain({ sliceSpent: true });
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses += 1;
    expect(step.value).toEqual(expected);
    expect(pauses).toBe(300);
  });
});
