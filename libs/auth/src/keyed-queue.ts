/**
 * Runs tasks one at a time per key, in arrival order; a task with several keys waits for every
 * earlier task sharing any of them. Tasks register on all their keys at once, when called, so
 * each waits only for earlier ones: no cycle, no deadlock. Unused keys are forgotten.
 *
 * Why: a password check takes ~50 ms of scrypt, and throttling counts failures only once a
 * check has ended. Twenty guesses arriving together would all be checked before the first
 * failure counted; one at a time per user and per address, the sixth finds five failures and
 * is refused without scrypt.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(keys: readonly string[], task: () => Promise<T>): Promise<T> {
    let finished!: () => void;
    const done = new Promise<void>((resolve) => (finished = resolve));
    const earlier: Promise<void>[] = [];
    for (const key of keys) {
      const tail = this.tails.get(key);
      if (tail !== undefined) earlier.push(tail);
      this.tails.set(key, done);
    }
    try {
      if (earlier.length > 0) await Promise.all(earlier);
      return await task();
    } finally {
      finished();
      for (const key of keys) if (this.tails.get(key) === done) this.tails.delete(key);
    }
  }

  /** Keys with a task running or waiting. */
  get size(): number {
    return this.tails.size;
  }
}
