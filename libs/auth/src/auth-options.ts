/** Settings of the auth library, resolved by the app from its config and database at start. */
export interface AuthOptions {
  jwt: {
    /** HS256 secret; ignored when `publicKey` is set. */
    secret: string;
    /** PEM public key: tokens from an outside issuer (RS256 or ES256) are accepted instead. */
    publicKey?: string;
    issuer?: string;
    audience?: string;
    ttlSeconds: number;
    /** A scheme word accepted besides `Bearer`, as the original's configurable prefix was. */
    prefix?: string;
  };
  /** Failed authentications allowed per user and per address within a window (README "Throttling"). */
  throttle?: { limit: number; windowMs: number };
}

export const AUTH_OPTIONS = Symbol('AUTH_OPTIONS');

/** Seconds of clock difference tolerated on `exp`, `nbf` and `iat` (docs/auth.md). */
export const CLOCK_SKEW_SECONDS = 30;
