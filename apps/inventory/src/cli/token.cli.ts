/**
 * `npm run token [-- --subject NAME] [-- --ttl 15m]`: prints a JWT for this service, signed with
 * its configured or persisted secret, and nothing else on stdout.
 */
import '../library-paths';
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { TokenService } from '@inventory/auth';
import { ConfigError } from '../config/config-error';
import { CliError, runCli, withCliDatabase } from './cli-database';

const USAGE = 'usage: npm run token -- [--subject NAME] [--ttl DURATION]';

function options(): { subject: string; ttl?: string } {
  let values: { subject?: string; ttl?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { subject: { type: 'string', short: 's' }, ttl: { type: 'string', short: 't' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CliError(`${(error as Error).message}; ${USAGE}`);
  }
  if (values.help) throw new CliError(USAGE);
  const subject = values.subject ?? 'cli';
  if (subject.trim() === '') throw new CliError('--subject must not be empty');
  return { subject, ttl: values.ttl };
}

async function main(): Promise<void> {
  const { subject, ttl } = options();
  // --ttl is validated exactly like INVENTORY_JWT_TTL, and wins over it.
  const token = await withCliDatabase(ttl === undefined ? {} : { INVENTORY_JWT_TTL: ttl }, async ({ config, bootstrap }) => {
    const tokens = new TokenService({
      jwt: {
        secret: bootstrap.jwtSecret,
        publicKey: config.jwt.publicKey,
        issuer: config.jwt.issuer,
        audience: config.jwt.audience,
        ttlSeconds: config.jwt.ttlSeconds,
        prefix: config.jwt.prefix,
      },
    });
    if (!tokens.canIssue) {
      throw new CliError('INVENTORY_JWT_PUBLIC_KEY is set: tokens come from the outside issuer, this service cannot issue them');
    }
    return tokens.issue(subject).access_token;
  }).catch((error: unknown) => {
    if (ttl !== undefined && error instanceof ConfigError && error.message.startsWith('INVENTORY_JWT_TTL:')) {
      throw new CliError(`--ttl: "${ttl}" is not a duration like 900, 15m, 1h or 1d`);
    }
    throw error;
  });
  process.stdout.write(`${token}\n`);
}

runCli('token', main);
