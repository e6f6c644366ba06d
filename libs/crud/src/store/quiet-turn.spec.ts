import { afterQuietTurn, MAX_GROUP_TURNS } from './quiet-turn';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('afterQuietTurn', () => {
  it('flushes a lone write at the first turn', async () => {
    const flushed: number[] = [];
    afterQuietTurn(
      () => 1,
      () => flushed.push(1),
    );
    expect(flushed).toEqual([]);
    await nextTurn();
    expect(flushed).toEqual([1]);
  });

  it('waits while each turn brings more, and flushes at the first turn that brings none', async () => {
    let size = 1;
    let flushedAt: number | undefined;
    afterQuietTurn(
      () => size,
      () => (flushedAt = size),
    );
    // Writes arriving in the turns before the flush join the group.
    size += 3;
    await nextTurn();
    size += 2;
    await nextTurn();
    expect(flushedAt).toBeUndefined();
    await nextTurn();
    expect(flushedAt).toBe(6);
  });

  it(`flushes after ${MAX_GROUP_TURNS} turns however many keep coming`, async () => {
    let size = 1;
    let turns = 0;
    let flushedAfter: number | undefined;
    afterQuietTurn(
      () => size,
      () => (flushedAfter = turns),
    );
    while (flushedAfter === undefined && turns < 100) {
      size += 1;
      turns += 1;
      await nextTurn();
    }
    expect(flushedAfter).toBe(MAX_GROUP_TURNS);
  });
});
