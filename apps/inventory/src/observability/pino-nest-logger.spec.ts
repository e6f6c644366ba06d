import { Logger } from '@nestjs/common';
import { createRootLogger } from './root-logger';
import { PinoNestLogger } from './pino-nest-logger';

function capture(level: 'info' | 'debug' | 'error' = 'info') {
  let text = '';
  const pino = createRootLogger(
    { logLevel: level, logFormat: 'json' },
    { destination: { write: (chunk: string) => void (text += chunk) } },
  );
  return {
    nest: new PinoNestLogger(pino),
    lines: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('PinoNestLogger', () => {
  it('writes Nest’s lines as JSON, with the context Nest passes last', () => {
    const { nest, lines } = capture();
    nest.log('Nest application successfully started', 'NestApplication');
    nest.warn('careful', 'Bootstrap');
    expect(lines()).toEqual([
      expect.objectContaining({
        level: 'info',
        context: 'NestApplication',
        msg: 'Nest application successfully started',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      }),
      expect.objectContaining({ level: 'warn', context: 'Bootstrap', msg: 'careful' }),
    ]);
  });

  it('keeps an error’s stack apart from its context', () => {
    const { nest, lines } = capture();
    nest.error('it broke', 'Error: it broke\n    at somewhere (file.ts:1:1)', 'ExceptionHandler');
    expect(lines()).toEqual([
      expect.objectContaining({
        level: 'error',
        context: 'ExceptionHandler',
        msg: 'it broke',
        stack: expect.stringContaining('at somewhere'),
      }),
    ]);
  });

  it('makes the fields of an object message the line’s fields', () => {
    const { nest, lines } = capture();
    nest.warn({ msg: 'authentication failed', reqId: 'r-1', user: 'bob' }, 'Auth');
    expect(lines()).toEqual([
      expect.objectContaining({ level: 'warn', context: 'Auth', msg: 'authentication failed', reqId: 'r-1', user: 'bob' }),
    ]);
  });

  it('honours LOG_LEVEL: verbose is pino’s trace, and quieter levels are dropped', () => {
    const { nest, lines } = capture('error');
    nest.log('hidden', 'X');
    nest.warn('hidden', 'X');
    nest.verbose('hidden', 'X');
    nest.error('shown', 'X');
    expect(lines().map((line) => line.msg)).toEqual(['shown']);
  });

  it('serves `new Logger(context)` once Nest’s logger is overridden with it', () => {
    const { nest, lines } = capture('debug');
    Logger.overrideLogger(nest);
    try {
      new Logger('Database').debug('waiting');
    } finally {
      Logger.overrideLogger(['error']);
    }
    expect(lines()).toEqual([expect.objectContaining({ level: 'debug', context: 'Database', msg: 'waiting' })]);
  });
});
