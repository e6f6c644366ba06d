import { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

type PinoLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Nest's LoggerService on pino, so that Nest's own lines, `new Logger(context)` in the code and
 * the app's pino lines are one stream in one format. Nest passes the context as the last
 * argument; `error` may carry a stack before it. A message may be an object: its fields become
 * the line's fields (`{ msg, reqId, ... }`), which is how code without pino logs structured
 * lines.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: PinoLevel, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    const rest = [...params];
    // Nest's context comes last; a string holding a line break before it is a stack.
    if (rest.length > 0 && typeof rest[rest.length - 1] === 'string' && !(rest[rest.length - 1] as string).includes('\n')) {
      fields.context = rest.pop();
    }
    const stack = rest.find((param) => typeof param === 'string' && param.includes('\n'));
    if (stack !== undefined) fields.stack = stack;
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      const { msg, ...others } = message as Record<string, unknown>;
      this.pino[level]({ ...fields, ...others }, typeof msg === 'string' ? msg : undefined);
    } else {
      this.pino[level](fields, String(message));
    }
  }
}
