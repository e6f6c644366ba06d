import { isIPv6 } from 'node:net';

/** Longer user names are cut in keys and logs: they cost memory and log space, not guesses. */
const MAX_USER_LENGTH = 128;

/**
 * The throttling key of a client address. IPv6 hosts usually own a whole /64, so each
 * address in it would otherwise get its own allowance: the /64 is the key. An IPv4 address
 * mapped into IPv6 (`::ffff:10.0.0.1`) is the IPv4 address.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return `address:${mapped[1]}`;
  if (!isIPv6(ip)) return `address:${ip}`;
  return `address:${ipv6Prefix64(ip)}::/64`;
}

function ipv6Prefix64(ip: string): string {
  const [head, tail = ''] = ip.split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return groups
    .slice(0, 4)
    .map((group) => (parseInt(group, 16) || 0).toString(16))
    .join(':');
}

/** The user a Basic `Authorization` header names, or undefined when it is not Basic or not decodable. */
export function basicUser(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return decoded.slice(0, Math.min(colon, MAX_USER_LENGTH));
}

export function userKey(user: string): string {
  return `user:${user}`;
}
