import { STATUS_CODES } from 'node:http';

export type EnvelopeMessageValue = string | Record<string, string>;

/** The spec's error envelope; an error answer is always a one-element array of it. */
export function errorEnvelope(status: number, message: EnvelopeMessageValue) {
  return [{ status: STATUS_CODES[status] ?? 'Error', code: status, error: true, message }];
}
