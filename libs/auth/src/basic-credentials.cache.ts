import { createHmac, randomBytes } from 'node:crypto';

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * Remembers credentials that verified recently, so that a Basic client does not pay a slow
 * scrypt on every request. Keys are HMACs under a per-process random key: the cache never holds
 * a password. A changed password takes effect for a cached client within TTL_MS.
 */
export class BasicCredentialsCache {
  private readonly key = randomBytes(32);
  private readonly verified = new Map<string, number>();

  has(username: string, password: string): boolean {
    const fingerprint = this.fingerprint(username, password);
    const expires = this.verified.get(fingerprint);
    if (expires === undefined) return false;
    if (expires < Date.now()) {
      this.verified.delete(fingerprint);
      return false;
    }
    return true;
  }

  remember(username: string, password: string): void {
    if (this.verified.size >= MAX_ENTRIES) this.verified.clear();
    this.verified.set(this.fingerprint(username, password), Date.now() + TTL_MS);
  }

  private fingerprint(username: string, password: string): string {
    return createHmac('sha256', this.key).update(username).update('\0').update(password).digest('base64');
  }
}
