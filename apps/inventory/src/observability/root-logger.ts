import pino, { DestinationStream, Logger } from 'pino';
import pretty from 'pino-pretty';
import { AppConfig } from '../config/app-config';
import { pinoLevel } from '../logger-levels';

export interface RootLoggerOptions {
  /** Whether stdout is a terminal: `LOG_FORMAT=auto` is then human-readable, and coloured. */
  isTTY?: boolean;
  /** Where lines go instead of stdout (tests read them). */
  destination?: DestinationStream;
}

/**
 * The process's one logger: Nest's lines (through PinoNestLogger), the access log and every
 * line of a request (with its `reqId`). JSON lines, or pino-pretty's lines for a human.
 *
 * JSON goes to stdout through an asynchronous SonicBoom: lines written while a write is under
 * way are joined into the next one, so a busy access log costs a few writes per second rather
 * than one per request, and pino flushes what is left when the process exits.
 */
export function createRootLogger(config: Pick<AppConfig, 'logLevel' | 'logFormat'>, options: RootLoggerOptions = {}): Logger {
  const human = config.logFormat === 'pretty' || (config.logFormat === 'auto' && options.isTTY === true);
  const destination =
    options.destination ??
    (human
      ? pretty({
          colorize: options.isTTY === true,
          sync: true,
          translateTime: 'SYS:HH:MM:ss.l',
          ignore: 'pid,hostname,context',
          messageFormat: '{if context}[{context}] {end}{msg}',
        })
      : pino.destination({ dest: 1, sync: false }));
  return pino(
    {
      level: pinoLevel(config.logLevel),
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Nothing logs headers today; should a line ever carry them, credentials stay out.
      redact: { paths: ['headers.authorization', 'req.headers.authorization', 'authorization', 'password'], censor: '[redacted]' },
    },
    destination,
  );
}

/** Writes out what the logger still holds, before a line is printed straight to stderr and the process exits. */
export function flushLogsSync(logger: Logger | undefined): void {
  const stream = (logger as unknown as Record<symbol, { flushSync?: () => void }> | undefined)?.[pino.symbols.streamSym];
  try {
    stream?.flushSync?.();
  } catch {
    // Nothing written yet, or the stream is gone: nothing to flush.
  }
}
