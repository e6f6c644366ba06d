import { decodePostgresText, encodePostgresText } from './sql-dialect';

describe("PostgreSQL's text encoding of NUL", () => {
  it.each([
    ['plain text', 'host-000123'],
    ['NUL', 'a\u0000b'],
    ['U+0001', 'a\u0001b'],
    ['both, adjacent and repeated', '\u0000\u0001\u0001\u0000\u0000'],
    ['the encoded form itself, as a value', '\u0001\u0001\u0001\u0002'],
    ['empty', ''],
  ])('%s: decoding undoes encoding', (_label, text) => {
    expect(decodePostgresText(encodePostgresText(text))).toBe(text);
    expect(encodePostgresText(text)).not.toContain('\u0000');
  });
});
