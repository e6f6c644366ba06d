import { readFileSync } from 'node:fs';
import { createPublicKey, KeyObject } from 'node:crypto';
import { AppConfig, LOG_FORMATS, LOG_LEVELS, LogFormat, LogLevelName } from './app-config';
import { corsOrigins, trustProxy } from './network-settings';
import { ConfigError } from './config-error';

type Env = Record<string, string | undefined>;

/** Reads and validates the environment (docs/running.md). Throws ConfigError naming the variable. */
export function loadConfig(env: Env): AppConfig {
  return {
    port: integer(env, 'PORT', 5000, 0, 65535),
    host: text(env, 'HOST') ?? '0.0.0.0',
    database: database(env),
    databaseRetryMs: waitDuration(env, 'INVENTORY_DATABASE_RETRY', '30s'),
    jwt: {
      secret: jwtSecret(env),
      ...publicKey(env),
      issuer: text(env, 'INVENTORY_JWT_ISSUER'),
      audience: text(env, 'INVENTORY_JWT_AUDIENCE'),
      ttlSeconds: duration(env, 'INVENTORY_JWT_TTL', '15m'),
      prefix: prefix(env),
    },
    admin: {
      username: text(env, 'INVENTORY_ADMIN_USER') ?? 'admin',
      password: text(env, 'INVENTORY_ADMIN_PASSWORD'),
    },
    demoData: boolean(env, 'INVENTORY_DEMO_DATA', true),
    queryTimeoutMs: duration(env, 'INVENTORY_QUERY_TIMEOUT', '10s') * 1000,
    bodyLimitBytes: size(env, 'INVENTORY_BODY_LIMIT', '16mb'),
    requestTimeoutMs: duration(env, 'INVENTORY_REQUEST_TIMEOUT', '30s') * 1000,
    maxConnections: integer(env, 'INVENTORY_MAX_CONNECTIONS', 10_000, 1, 1_000_000),
    logLevel: logLevel(env),
    logFormat: logFormat(env),
    accessLog: boolean(env, 'INVENTORY_ACCESS_LOG', false),
    metrics: boolean(env, 'INVENTORY_METRICS', true),
    corsOrigins: corsOrigins(text(env, 'INVENTORY_CORS_ORIGINS')),
    trustProxy: trustProxy(text(env, 'INVENTORY_TRUST_PROXY')),
    authThrottle: {
      limit: integer(env, 'INVENTORY_AUTH_FAILURE_LIMIT', 5, 1, 1_000_000),
      windowMs: duration(env, 'INVENTORY_AUTH_FAILURE_WINDOW', '1m') * 1000,
    },
  };
}

function text(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new ConfigError(name, `"${raw}" is not a whole number from ${min} to ${max}`);
  return Number(raw);
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `"${raw}" is not true or false`);
}

function database(env: Env): AppConfig['database'] {
  const raw = text(env, 'DATABASE_URL') ?? 'sqlite:./data/inventory.sqlite';
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length);
    if (path === '') throw new ConfigError('DATABASE_URL', 'sqlite: needs a file path or :memory:');
    return { type: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return { type: 'postgres', url: raw };
  }
  throw new ConfigError('DATABASE_URL', 'must start with sqlite: or postgres://');
}

function jwtSecret(env: Env): string | undefined {
  const secret = env.INVENTORY_JWT_SECRET;
  if (secret === undefined || secret === '') return undefined;
  if (Buffer.byteLength(secret) < 32) throw new ConfigError('INVENTORY_JWT_SECRET', 'must be at least 32 bytes for HS256');
  return secret;
}

function publicKey(env: Env): Pick<AppConfig['jwt'], 'publicKey' | 'publicKeyPath'> {
  const path = text(env, 'INVENTORY_JWT_PUBLIC_KEY');
  if (path === undefined) return {};
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch {
    throw new ConfigError('INVENTORY_JWT_PUBLIC_KEY', `cannot read ${path}`);
  }
  const key = publicKeyOf(pem);
  const type = key?.asymmetricKeyType;
  if (!key || (type !== 'rsa' && type !== 'ec')) {
    throw new ConfigError('INVENTORY_JWT_PUBLIC_KEY', `${path} is not an RSA or EC public key in PEM form`);
  }
  // An EC key is checked as ES256, which only a P-256 key can verify: any other curve would start a
  // service that answers 401 to every token.
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (type === 'ec' && curve !== 'prime256v1') {
    throw new ConfigError(
      'INVENTORY_JWT_PUBLIC_KEY',
      `${path} is an EC key on ${curve ?? 'an unnamed curve'}; ES256 needs P-256 (prime256v1)`,
    );
  }
  return { publicKey: pem, publicKeyPath: path };
}

function publicKeyOf(pem: string): KeyObject | undefined {
  try {
    return createPublicKey(pem);
  } catch {
    return undefined;
  }
}

function prefix(env: Env): string | undefined {
  const raw = text(env, 'INVENTORY_JWT_PREFIX');
  if (raw === undefined) return undefined;
  if (!/^[A-Za-z][A-Za-z0-9._-]*$/.test(raw)) throw new ConfigError('INVENTORY_JWT_PREFIX', `"${raw}" must be one word`);
  return raw;
}

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

function duration(env: Env, name: string, fallback: string): number {
  const raw = text(env, name) ?? fallback;
  const match = /^(\d+)\s*([smhd]?)$/.exec(raw);
  if (!match || Number(match[1]) === 0) throw new ConfigError(name, `"${raw}" is not a duration like 900, 15m, 1h or 1d`);
  return Number(match[1]) * DURATION_UNITS[match[2] || 's'];
}

const WAIT_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** Milliseconds; a bare number is seconds, as in INVENTORY_JWT_TTL; 0 is allowed (no waiting). */
function waitDuration(env: Env, name: string, fallback: string): number {
  const raw = (text(env, name) ?? fallback).toLowerCase();
  const match = /^(\d+)\s*(ms|s|m)?$/.exec(raw);
  if (!match || Number(match[1]) * WAIT_UNITS[match[2] ?? 's'] > 86_400_000)
    throw new ConfigError(name, `"${raw}" is not a duration like 30s, 2m or 500ms (0 for none, at most a day)`);
  return Number(match[1]) * WAIT_UNITS[match[2] ?? 's'];
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

function size(env: Env, name: string, fallback: string): number {
  const raw = (text(env, name) ?? fallback).toLowerCase();
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/.exec(raw);
  if (!match || Number(match[1]) === 0) throw new ConfigError(name, `"${raw}" is not a size like 16mb or 500kb`);
  return Number(match[1]) * SIZE_UNITS[match[2] ?? ''];
}

function logLevel(env: Env): LogLevelName {
  const raw = (text(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(raw))
    throw new ConfigError('LOG_LEVEL', `"${raw}" is not one of ${LOG_LEVELS.join(', ')}`);
  return raw as LogLevelName;
}

function logFormat(env: Env): LogFormat {
  const raw = (text(env, 'LOG_FORMAT') ?? 'auto').toLowerCase();
  if (!(LOG_FORMATS as readonly string[]).includes(raw))
    throw new ConfigError('LOG_FORMAT', `"${raw}" is not one of ${LOG_FORMATS.join(', ')}`);
  return raw as LogFormat;
}
