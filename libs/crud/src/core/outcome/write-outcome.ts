import { STATUS_CODES } from 'node:http';

export type WriteOperation = 'create' | 'update' | 'delete';
export type EnvelopeMessage = string | Record<string, string>;

export interface Envelope {
  status: string;
  code: number;
  error: boolean;
  message: EnvelopeMessage;
}

/** What happened to one item of a write; `writeAnswer` turns a list of these into the answer. */
export class WriteOutcome {
  constructor(
    readonly status: number,
    readonly message: EnvelopeMessage,
  ) {}

  get succeeded(): boolean {
    return this.status < 400;
  }

  toEnvelope(): Envelope {
    return envelope(this.status, this.message);
  }
}

/**
 * The spec's envelope. A successful delete is HTTP 205 with `code` 200 inside: that is how the
 * original service answered and what its clients check.
 */
export function envelope(status: number, message: EnvelopeMessage): Envelope {
  return {
    status: reasonPhrase(status),
    code: status === 205 ? 200 : status,
    error: status >= 400,
    message,
  };
}

export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Unknown';
}

/**
 * docs/responses.md: one shared code is the answer's code; otherwise all-successful batches answer
 * 201 (create) or 200 (update, delete being always uniform), and mixed ones 207 Multi-Status.
 */
export function answerStatus(operation: WriteOperation, outcomes: readonly WriteOutcome[]): number {
  if (outcomes.length === 0) return 204;
  const first = outcomes[0].status;
  if (outcomes.every((outcome) => outcome.status === first)) return first;
  if (outcomes.every((outcome) => outcome.succeeded)) return operation === 'create' ? 201 : 200;
  return 207;
}
