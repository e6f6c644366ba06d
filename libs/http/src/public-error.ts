import { EnvelopeMessageValue } from './envelope';

/**
 * The shape by which library errors say how they should be answered without depending on Nest:
 * a status, and optionally a message that is safe to show. Errors without `httpStatus` are
 * unexpected and answer 500 without detail.
 */
export interface PublicError {
  httpStatus: number;
  publicMessage?: EnvelopeMessageValue;
  /** Headers the answer needs, e.g. `Allow` with a 405 or `WWW-Authenticate` with a 401. */
  headers?: Record<string, string>;
  message: string;
}

export function isPublicError(error: unknown): error is PublicError {
  return error instanceof Error && typeof (error as Partial<PublicError>).httpStatus === 'number';
}
