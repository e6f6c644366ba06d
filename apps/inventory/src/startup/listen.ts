import { INestApplication, Logger } from '@nestjs/common';
import { once } from 'node:events';
import { AddressInfo, createServer, Server } from 'node:net';
import { AppConfig } from '../config/app-config';
import { StartError } from './start-error';

/**
 * Fails fast, before the database is opened and before Nest logs "successfully started", when
 * the address cannot be bound. The real listen can still lose a race for the port; `listen`
 * below maps that failure to the same line.
 */
export async function assertCanListen(config: Pick<AppConfig, 'port' | 'host'>): Promise<void> {
  // Port 0 asks the kernel for any free port: nothing to check.
  if (config.port === 0) return;
  const probe = createServer();
  probe.listen(config.port, config.host);
  try {
    await once(probe, 'listening');
  } catch (error) {
    throw listenFailure(error, config);
  }
  await new Promise((resolve) => probe.close(resolve));
}

/** `app.listen`, with a failure to bind turned into one line naming PORT or HOST; logs where it listens. */
export async function listen(app: INestApplication, config: Pick<AppConfig, 'port' | 'host'>): Promise<void> {
  try {
    await app.listen(config.port, config.host);
  } catch (error) {
    throw listenFailure(error, config);
  }
  const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  new Logger('Server').log(`listening on http://${host}:${port}`);
}

function listenFailure(error: unknown, { port, host }: Pick<AppConfig, 'port' | 'host'>): unknown {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new StartError('PORT', `${port} is already in use on ${host} (another process listens there)`);
    case 'EACCES':
      return new StartError('PORT', `${port} on ${host} needs privileges this process does not have (use a port above 1023)`);
    case 'EADDRNOTAVAIL':
      return new StartError('HOST', `${host} is not an address of this machine`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartError('HOST', `${host} does not resolve to an address`);
    default:
      return error;
  }
}
