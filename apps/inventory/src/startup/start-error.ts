/**
 * The start cannot go on because of what a variable names (the port is taken, the database does
 * not answer): main.ts prints it as one line, without a stack, and exits 1. The message must
 * never hold a password.
 */
export class StartError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = 'StartError';
  }
}

/** Ends a failed start: one line for a StartError; anything else is a bug, shown with its stack. */
export function exitOnStartFailure(error: unknown): never {
  if (error instanceof StartError) {
    process.stderr.write(`Cannot start: ${error.message}\n`);
  } else {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`Start failed: ${detail}\n`);
  }
  process.exit(1);
}
