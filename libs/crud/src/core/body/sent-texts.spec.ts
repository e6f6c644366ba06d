import { RecordBodyInspector } from './record-body-inspector';
import { sentTextsOf, sliceSentBody } from './sent-texts';

/** Parses `text` as the service reads a body: its bytes through the inspector in chunks, then the parsed body. */
function readBody(text: string, chunk = 5): unknown {
  const bytes = Buffer.from(text, 'utf8');
  const inspector = new RecordBodyInspector();
  for (let offset = 0; offset < bytes.length; offset += chunk) inspector.push(bytes.subarray(offset, offset + chunk));
  const body = JSON.parse(text) as unknown;
  inspector.inspect(body, text, bytes);
  return body;
}

describe('sentTextsOf', () => {
  it('gives the text each record of a list was sent as, number and string spellings included', () => {
    const body = readBody('[{"id":"a","n":1.0,"s":"\\u0041\\/"},{"id":"b","big":12345678901234567890,"e":1E3}]');
    expect(sentTextsOf(body)).toEqual(['{"id":"a","n":1.0,"s":"\\u0041\\/"}', '{"id":"b","big":12345678901234567890,"e":1E3}']);
  });

  it('gives the text of a body that is one record, and decodes characters outside ASCII', () => {
    expect(sentTextsOf(readBody(' {"id":"é","x":"😀","y":[{"z":"ü"}]}\n', 3))).toEqual(['{"id":"é","x":"😀","y":[{"z":"ü"}]}']);
    expect(sentTextsOf(readBody('[{"a":"日本"},{"b":"x"}]', 4))).toEqual(['{"a":"日本"}', '{"b":"x"}']);
  });

  it('gives none for a record sent with whitespace between its tokens', () => {
    expect(sentTextsOf(readBody('[{"id": "a"},{"id":"b","x":[1, 2]},{"id":"c"}]'))).toEqual([undefined, undefined, '{"id":"c"}']);
    expect(sentTextsOf(readBody('{\n  "id": "d"\n}'))).toEqual([undefined]);
  });

  it('gives none for a record whose text repeats a key, at any depth', () => {
    const body = readBody('[{"id":"a","id":"b"},{"id":"c","x":{"k":1,"k":2}},{"id":"d","x":{"k":1}}]');
    expect(sentTextsOf(body)).toEqual([undefined, undefined, '{"id":"d","x":{"k":1}}']);
  });

  it('gives none for items of a list that are not objects, and the objects after them in place', () => {
    expect(sentTextsOf(readBody('[1,"{\\"a\\":1}",[{"b":2}],{"c":3.50}]'))).toEqual([undefined, undefined, undefined, '{"c":3.50}']);
  });

  it('knows only the parsed body itself: not a copy, not a body that was not inspected', () => {
    const body = readBody('{"id":"a"}') as object;
    expect(sentTextsOf({ ...body })).toBeUndefined();
    expect(sentTextsOf(JSON.parse('{"id":"a"}'))).toBeUndefined();
    expect(sentTextsOf(undefined)).toBeUndefined();
  });

  it('gives a slice of a list the texts of its records, by their position in the slice', () => {
    const body = readBody('[{"a":1.0},{"b": 2},{"c":3.0},{"d":4.0}]') as unknown[];
    expect(sentTextsOf(sliceSentBody(body, 1, 3))).toEqual([undefined, '{"c":3.0}']);
    expect(sentTextsOf(sliceSentBody(body, 3, 9))).toEqual(['{"d":4.0}']);
    expect(sentTextsOf(sliceSentBody(JSON.parse('[{"a":1}]') as unknown[], 0, 1))).toBeUndefined();
  });
});
