import type { Logger } from 'pino';
import { LogLevelName } from '../../apps/inventory/src/config/app-config';
import { createRootLogger } from '../../apps/inventory/src/observability/root-logger';

/** A root logger built as main.ts builds it (JSON lines), writing into memory for a test to read. */
export interface CapturedLog {
  logger: Logger;
  /** Everything written, byte for byte. */
  text(): string;
  /** Every line, parsed. */
  lines(): Record<string, any>[];
}

export function captureLog(logLevel: LogLevelName = 'info'): CapturedLog {
  let text = '';
  const logger = createRootLogger({ logLevel, logFormat: 'json' }, { destination: { write: (chunk: string) => void (text += chunk) } });
  return {
    logger,
    text: () => text,
    lines: () =>
      text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, any>),
  };
}
