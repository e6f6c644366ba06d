/**
 * Failed authentications per key (a user, a client address) in a sliding window: once a key
 * has `limit` failures younger than `windowMs`, it is refused until the oldest of them ages
 * out. Successes do not reset it: an attacker holding one valid account could otherwise
 * interleave its own logins to clear its address. In memory, per process (README
 * "Throttling"); at most `maxKeys` keys, the least recently failed forgotten first.
 */
export class FailureThrottle {
  /** Per key, the times of its last `limit` failures, oldest first. */
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Milliseconds until the key may try again; 0 when it may now. */
  waitMs(key: string, now = Date.now()): number {
    const times = this.failures.get(key);
    if (times === undefined || times.length < this.limit) return 0;
    const wait = times[0] + this.windowMs - now;
    if (wait > 0) return wait;
    return 0;
  }

  /** Records a failure; answers true when this one makes the key wait (so that is logged once). */
  fail(key: string, now = Date.now()): boolean {
    const times = this.failures.get(key) ?? [];
    // Re-inserted, so that Map order is least recently failed first.
    this.failures.delete(key);
    while (times.length > 0 && times[0] <= now - this.windowMs) times.shift();
    times.push(now);
    if (times.length > this.limit) times.shift();
    this.failures.set(key, times);
    if (this.failures.size > this.maxKeys) this.failures.delete(this.failures.keys().next().value as string);
    return times.length === this.limit;
  }

  get size(): number {
    return this.failures.size;
  }
}
