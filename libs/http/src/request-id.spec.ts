import type { IncomingMessage } from 'node:http';
import { isValidRequestId, requestIdFor } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const withHeader = (value?: string | string[]) =>
  ({ headers: value === undefined ? {} : { 'x-request-id': value } }) as unknown as IncomingMessage;

describe('request ids', () => {
  it.each(['a', 'req-42', '0f8fad5b-d9cb-469f-a165-70867728950e', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 'trace:span.1_x', 'x'.repeat(128)])(
    'keeps %j',
    (id) => {
      expect(isValidRequestId(id)).toBe(true);
      expect(requestIdFor(withHeader(id))).toBe(id);
    },
  );

  it.each([
    ['empty', ''],
    ['longer than 128', 'x'.repeat(129)],
    ['a space', 'a b'],
    ['a line break', 'a\nb'],
    ['a quote', 'a"b'],
    ['a slash', 'a/b'],
    ['non-ASCII', 'é'],
    ['two headers joined by Node', 'a, b'],
  ])('replaces one with %s by a new UUID', (_, id) => {
    expect(isValidRequestId(id)).toBe(false);
    expect(requestIdFor(withHeader(id))).toMatch(UUID);
  });

  it('generates a different UUID for each request without one', () => {
    const [a, b] = [requestIdFor(withHeader()), requestIdFor(withHeader())];
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    expect(a).not.toBe(b);
  });

  it('never keeps a header that is not a string', () => {
    expect(isValidRequestId(['a', 'b'])).toBe(false);
    expect(requestIdFor(withHeader(['a', 'b']))).toMatch(UUID);
  });
});
