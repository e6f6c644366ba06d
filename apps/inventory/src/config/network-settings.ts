import { isIP } from 'node:net';
import { ConfigError } from './config-error';

/**
 * INVENTORY_CORS_ORIGINS: a comma-separated list of origins (`https://app.example`,
 * `http://localhost:3000`), or `*`. Each is kept as the browser will send it in `Origin`
 * (lower-case host, no default port), so that matching is a plain comparison.
 */
export function corsOrigins(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const origins = raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return origins.map((item) => {
    if (item === '*') return item;
    let url: URL | undefined;
    try {
      url = new URL(item);
    } catch {
      url = undefined;
    }
    const originOnly = url && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    if (!url || !originOnly || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new ConfigError(
        'INVENTORY_CORS_ORIGINS',
        `"${item}" is not an origin like https://app.example or http://localhost:3000 (scheme, host and port only), or *`,
      );
    }
    return url.origin;
  });
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * INVENTORY_TRUST_PROXY, as Fastify's `trustProxy` takes it: `false` (the default: the
 * connection's address is the client), `true` (believe any X-Forwarded-For: only behind a
 * proxy that overwrites it), a number of proxy hops, or a comma-separated list of proxy
 * addresses, CIDR ranges and the names loopback, linklocal, uniquelocal.
 */
export function trustProxy(raw: string | undefined): boolean | number | string[] {
  if (raw === undefined) return false;
  const lower = raw.toLowerCase();
  if (['false', '0', 'no', 'off'].includes(lower)) return false;
  if (['true', 'yes', 'on'].includes(lower)) return true;
  if (/^\d+$/.test(raw)) {
    if (Number(raw) > 100) throw new ConfigError('INVENTORY_TRUST_PROXY', `"${raw}" hops is more than 100`);
    return Number(raw);
  }
  const items = raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  for (const item of items) {
    if (!isProxyAddress(item)) {
      throw new ConfigError(
        'INVENTORY_TRUST_PROXY',
        `"${item}" is not true, false, a number of hops, an address, a CIDR range or one of ${PROXY_NAMES.join(', ')}`,
      );
    }
  }
  return items;
}

function isProxyAddress(item: string): boolean {
  if (PROXY_NAMES.includes(item)) return true;
  const [address, prefix, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
