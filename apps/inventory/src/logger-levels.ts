import { LogLevel } from '@nestjs/common';
import { LogLevelName } from './config/app-config';

/** LOG_LEVEL names the quietest level still shown; Nest wants the list of shown levels. */
export function nestLogLevels(level: LogLevelName): LogLevel[] {
  const order: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
  const cut = { error: 2, warn: 3, info: 4, debug: 5, verbose: 6 }[level];
  return order.slice(0, cut);
}

/** The same LOG_LEVEL as pino names it: Nest's `verbose` is pino's `trace`. */
export function pinoLevel(level: LogLevelName): 'error' | 'warn' | 'info' | 'debug' | 'trace' {
  return level === 'verbose' ? 'trace' : level;
}
