import { CLOCK_SKEW_SECONDS } from './auth-options';
import { VerifiedTokenCache } from './verified-token.cache';

describe('VerifiedTokenCache', () => {
  const now = 1_800_000_000_000;
  const inSeconds = (ms: number) => (now + ms) / 1000;

  it('answers a remembered token until 60 s have passed', () => {
    const cache = new VerifiedTokenCache<string>();
    cache.remember('t', 'alice', inSeconds(3_600_000), now);
    expect(cache.get('t', now + 59_999)).toBe('alice');
    expect(cache.get('t', now + 60_000)).toBeUndefined();
  });

  it('never answers past the token’s exp plus the tolerated skew', () => {
    const cache = new VerifiedTokenCache<string>();
    cache.remember('t', 'alice', inSeconds(5_000), now);
    expect(cache.get('t', now + 5_000 + CLOCK_SKEW_SECONDS * 1000 - 1)).toBe('alice');
    expect(cache.get('t', now + 5_000 + CLOCK_SKEW_SECONDS * 1000)).toBeUndefined();
  });

  it('does not remember a token that is already past its exp and skew', () => {
    const cache = new VerifiedTokenCache<string>();
    cache.remember('t', 'alice', inSeconds(-CLOCK_SKEW_SECONDS * 1000 - 1), now);
    expect(cache.get('t', now)).toBeUndefined();
  });

  it('knows only the exact token it was given', () => {
    const cache = new VerifiedTokenCache<string>();
    cache.remember('token-a', 'alice', inSeconds(3_600_000), now);
    expect(cache.get('token-b', now)).toBeUndefined();
    expect(cache.get('token-a ', now)).toBeUndefined();
  });
});
