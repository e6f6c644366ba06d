import { sign, SignOptions } from 'jsonwebtoken';

/** Fixed test credentials: the app under test is configured with them, tests sign with them. */
export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
export const TEST_ADMIN = { username: 'admin', password: 'test-admin-password' };

export function bearer(claims: Record<string, unknown> = {}, options: SignOptions = {}): string {
  return `Bearer ${signToken(claims, options)}`;
}

/** A real HS256 token, valid for five minutes unless the options say otherwise. */
export function signToken(claims: Record<string, unknown> = {}, options: SignOptions = {}, secret = TEST_JWT_SECRET): string {
  return sign({ sub: 'tester', ...claims }, secret, { algorithm: 'HS256', expiresIn: 300, ...options });
}

export function basic(username = TEST_ADMIN.username, password = TEST_ADMIN.password): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}
