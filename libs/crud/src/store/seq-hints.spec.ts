import { SeqHints } from './seq-hints';

describe('SeqHints', () => {
  it('answers the sequence number set for a family and id, and nothing for any other key', () => {
    const hints = new SeqHints();
    hints.set('event', 'e1', 7);
    expect(hints.get('event', 'e1')).toBe(7);
    expect(hints.get('other', 'e1')).toBeUndefined();
    expect(hints.get('event', 'e2')).toBeUndefined();
    // The separator keeps a family's end from passing for an id's start.
    hints.set('ab', 'c', 9);
    expect(hints.get('a', 'bc')).toBeUndefined();
  });

  it('a later hint for the same key replaces the earlier one', () => {
    const hints = new SeqHints();
    hints.set('event', 'e1', 7);
    hints.set('event', 'e1', 12);
    expect(hints.get('event', 'e1')).toBe(12);
  });

  it('doubles while the keys given outnumber half its slots, up to its cap', () => {
    const hints = new SeqHints(1 << 16);
    const first = hints.slots;
    for (let seq = 1; seq <= 10_000; seq += 1) hints.set('event', `e${seq}`, seq);
    expect(hints.slots).toBe(first * 2);
    // One entry a slot: of 10,000 in 32,768 slots, those that share a slot keep the later one.
    const kept = Array.from({ length: 10_000 }, (_, k) => hints.get('event', `e${k + 1}`)).filter((seq, k) => seq === k + 1);
    expect(kept.length).toBeGreaterThan(8_000);
    for (let seq = 10_001; seq <= 100_000; seq += 1) hints.set('event', `e${seq}`, seq);
    expect(hints.slots).toBe(1 << 16);
    expect(hints.get('event', 'e100000')).toBe(100_000);
  });

  it('is never wrong for these keys: a key answers its own number or none, even past the cap', () => {
    const hints = new SeqHints(1 << 14);
    for (let seq = 1; seq <= 20_000; seq += 1) hints.set('event', `e${seq}`, seq);
    for (let seq = 1; seq <= 20_000; seq += 1) expect([seq, undefined]).toContain(hints.get('event', `e${seq}`));
  });

  it('holds no hint for a number it cannot store', () => {
    const hints = new SeqHints();
    hints.set('event', 'zero', 0);
    hints.set('event', 'big', 2 ** 32);
    hints.set('event', 'largest', 2 ** 32 - 1);
    expect(hints.get('event', 'zero')).toBeUndefined();
    expect(hints.get('event', 'big')).toBeUndefined();
    expect(hints.get('event', 'largest')).toBe(2 ** 32 - 1);
  });
});
