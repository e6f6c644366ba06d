import { BodyError } from '../core/body/body-error';
import { isPlainObject } from '../core/query/field-path';

/**
 * A write body is one record or a batch. A path id names one record, so it cannot go with a
 * batch; an empty body or empty batch is "nothing to do" (204).
 */
export function writeItems(body: unknown): unknown[] {
  if (body === undefined || body === null) return [];
  if (Array.isArray(body)) return body;
  if (isPlainObject(body)) return [body];
  throw new BodyError('body must be a JSON object or a list of objects');
}
