import { FailureThrottle } from './failure-throttle';

describe('FailureThrottle', () => {
  const t0 = 1_800_000_000_000;

  it('lets a key try until it has failed `limit` times in the window, then makes it wait for the oldest to age out', () => {
    const throttle = new FailureThrottle(3, 60_000);
    expect(throttle.fail('k', t0)).toBe(false);
    expect(throttle.waitMs('k', t0)).toBe(0);
    expect(throttle.fail('k', t0 + 10_000)).toBe(false);
    expect(throttle.waitMs('k', t0 + 10_000)).toBe(0);
    expect(throttle.fail('k', t0 + 20_000)).toBe(true);
    expect(throttle.waitMs('k', t0 + 20_000)).toBe(40_000);
    expect(throttle.waitMs('k', t0 + 59_999)).toBe(1);
    // The first failure has aged out: one more try, and a new failure then waits for the second.
    expect(throttle.waitMs('k', t0 + 60_000)).toBe(0);
    expect(throttle.fail('k', t0 + 60_000)).toBe(true);
    expect(throttle.waitMs('k', t0 + 60_000)).toBe(10_000);
  });

  it('forgets failures older than the window (a sliding, not a fixed, window)', () => {
    const throttle = new FailureThrottle(2, 1000);
    throttle.fail('k', t0);
    throttle.fail('k', t0 + 1500);
    expect(throttle.waitMs('k', t0 + 1500)).toBe(0);
    throttle.fail('k', t0 + 1600);
    expect(throttle.waitMs('k', t0 + 1600)).toBe(900);
  });

  it('keeps keys apart', () => {
    const throttle = new FailureThrottle(1, 60_000);
    throttle.fail('user:mallory', t0);
    expect(throttle.waitMs('user:mallory', t0)).toBe(60_000);
    expect(throttle.waitMs('user:alice', t0)).toBe(0);
    expect(throttle.waitMs('address:10.0.0.1', t0)).toBe(0);
  });

  it('holds at most maxKeys keys, forgetting the least recently failed', () => {
    const throttle = new FailureThrottle(1, 60_000, 2);
    throttle.fail('a', t0);
    throttle.fail('b', t0 + 1);
    throttle.fail('a', t0 + 2);
    throttle.fail('c', t0 + 3);
    expect(throttle.size).toBe(2);
    expect(throttle.waitMs('b', t0 + 3)).toBe(0);
    expect(throttle.waitMs('a', t0 + 3)).toBeGreaterThan(0);
    expect(throttle.waitMs('c', t0 + 3)).toBeGreaterThan(0);
  });
});
