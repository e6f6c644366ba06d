import fastify, { FastifyRequest } from 'fastify';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { BodyRefusedError } from './body-refused.error';
import { BodyReaderOptions, hasUnreadBody, readBodiesAsJson, readRequestBody } from './body-reader';
import { RequestAbortedError } from './request-aborted.error';

/** What the inspectors saw: each body's chunks, then what it parsed to, with its text and bytes. */
const inspected: { chunks: string[]; parsed?: { body: unknown; text: string; bytes: string } }[] = [];

const options: BodyReaderOptions = {
  limitBytes: 1000,
  inspector: () => {
    const seen: (typeof inspected)[number] = { chunks: [] };
    inspected.push(seen);
    return {
      push: (chunk: Buffer) => {
        seen.chunks.push(chunk.toString());
        if (chunk.includes('!')) throw new Error('the inspector refuses "!"');
      },
      inspect: (body: unknown, text: string, bytes: Buffer) => {
        seen.parsed = { body, text, bytes: bytes.toString() };
        if (text.includes('"refused"')) throw new Error('the inspector refuses "refused"');
      },
    };
  },
};

/** A request as the guard sees it: headers arrived, body bytes pushed (or not) by the test. */
function requestWith(headers: Record<string, string>): { request: FastifyRequest; raw: IncomingMessage } {
  const server = fastify();
  readBodiesAsJson(server, options);
  const raw = new IncomingMessage(new Socket());
  raw.headers = { 'content-type': 'application/json', ...headers };
  const request = { raw, headers: raw.headers, server, body: undefined } as unknown as FastifyRequest;
  return { request, raw };
}

async function outcome(reading: Promise<void> | undefined): Promise<unknown> {
  const hang = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 500));
  return Promise.race([
    reading?.then(
      () => 'read',
      (error: Error) => error,
    ),
    hang,
  ]);
}

describe('readRequestBody', () => {
  it('answers undefined, not a promise, for a request without a body', () => {
    expect(readRequestBody(requestWith({}).request)).toBeUndefined();
  });

  it('reads the body once', async () => {
    const { request, raw } = requestWith({ 'content-length': '8' });
    const reading = readRequestBody(request);
    raw.push(Buffer.from('{"a": 1}'));
    raw.push(null);
    expect(await outcome(reading)).toBe('read');
    expect(request.body).toEqual({ a: 1 });
    expect(readRequestBody(request)).toBeUndefined();
  });

  it('shows one inspector the chunks as they come, then the parsed body with its text and bytes', async () => {
    inspected.length = 0;
    const { request, raw } = requestWith({ 'content-length': '10' });
    const reading = readRequestBody(request);
    await new Promise((resolve) => setImmediate(resolve));
    raw.push(Buffer.from('[{"é":'));
    raw.push(Buffer.from('1}]'));
    raw.push(null);
    expect(await outcome(reading)).toBe('read');
    expect(inspected).toEqual([{ chunks: ['[{"é":', '1}]'], parsed: { body: [{ é: 1 }], text: '[{"é":1}]', bytes: '[{"é":1}]' } }]);
  });

  it("takes whole, without listening to the stream, a body pushed in the same turn it was asked for (a GET's packet)", async () => {
    inspected.length = 0;
    const { request, raw } = requestWith({ 'content-length': '10' });
    const listen = jest.spyOn(raw, 'on');
    const reading = readRequestBody(request);
    raw.push(Buffer.from('[{"é":'));
    raw.push(Buffer.from('1}]'));
    expect(await outcome(reading)).toBe('read');
    expect(inspected).toEqual([{ chunks: ['[{"é":1}]'], parsed: { body: [{ é: 1 }], text: '[{"é":1}]', bytes: '[{"é":1}]' } }]);
    expect(listen).not.toHaveBeenCalled();
  });

  it('answers 400 with the message of an inspector that refuses the parsed body', async () => {
    const { request, raw } = requestWith({ 'content-length': '9' });
    const reading = readRequestBody(request);
    raw.push(Buffer.from('"refused"'));
    raw.push(null);
    const error = await outcome(reading);
    expect(error).toBeInstanceOf(BodyRefusedError);
    expect((error as BodyRefusedError).httpStatus).toBe(400);
    expect((error as BodyRefusedError).message).toBe('the inspector refuses "refused"');
  });

  it('stops at the first chunk the inspector refuses, without waiting for the rest', async () => {
    const { request, raw } = requestWith({ 'content-length': '900' });
    const reading = readRequestBody(request);
    raw.push(Buffer.from('[[!'));
    const error = await outcome(reading);
    expect(error).toBeInstanceOf(BodyRefusedError);
    expect((error as BodyRefusedError).httpStatus).toBe(400);
    expect(raw.listenerCount('data')).toBe(0);
  });

  it('refuses a client that left before its body was read, instead of waiting forever', async () => {
    const { request, raw } = requestWith({ 'content-length': '100' });
    raw.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await outcome(readRequestBody(request))).toBeInstanceOf(RequestAbortedError);
  });

  it('refuses a client that leaves while its body arrives', async () => {
    const { request, raw } = requestWith({ 'content-length': '100' });
    const reading = readRequestBody(request);
    raw.push(Buffer.from('{"a":'));
    raw.destroy();
    expect(await outcome(reading)).toBeInstanceOf(RequestAbortedError);
  });

  describe('a body that has arrived whole before it is asked for', () => {
    /** As Node's parser leaves a message: the body's bytes in, then its end and `complete` a callback later. */
    function arrived(headers: Record<string, string>, ...chunks: string[]): { request: FastifyRequest; raw: IncomingMessage } {
      const sent = requestWith(headers);
      for (const chunk of chunks) sent.raw.push(Buffer.from(chunk));
      if (headers['content-length'] === undefined) {
        sent.raw.push(null);
        sent.raw.complete = true;
      }
      return sent;
    }

    it('is read at once when its announced length is in, before the parser marks it complete', () => {
      const { request, raw } = arrived({ 'content-length': '13' }, '{"a":', ' [1, 2]}');
      expect(raw.complete).toBe(false);
      expect(readRequestBody(request)).toBeUndefined();
      expect(request.body).toEqual({ a: [1, 2] });
      expect(raw.readableLength).toBe(0);
      // Nothing is left to arrive: an error answer now keeps the connection.
      expect(hasUnreadBody(raw)).toBe(false);
    });

    it('is read at once when chunked and complete, its inspector seeing it as one chunk', () => {
      inspected.length = 0;
      const { request } = arrived({ 'transfer-encoding': 'chunked' }, '[1,', '2]');
      expect(readRequestBody(request)).toBeUndefined();
      expect(request.body).toEqual([1, 2]);
      expect(inspected).toEqual([{ chunks: ['[1,2]'], parsed: { body: [1, 2], text: '[1,2]', bytes: '[1,2]' } }]);
    });

    it('is waited for while fewer bytes than announced are in', async () => {
      const { request, raw } = arrived({ 'content-length': '13' }, '{"a":');
      const reading = readRequestBody(request);
      expect(reading).toBeInstanceOf(Promise);
      expect(hasUnreadBody(raw)).toBe(true);
      raw.push(Buffer.from(' [1, 2]}'));
      raw.push(null);
      expect(await outcome(reading)).toBe('read');
      expect(request.body).toEqual({ a: [1, 2] });
    });

    it('is refused as a streamed one would be: the inspector, bad JSON, the limit of a chunked body', async () => {
      const refusal = async (headers: Record<string, string>, body: string) => {
        const error = await outcome(readRequestBody(arrived(headers, body).request));
        expect(error).toBeInstanceOf(BodyRefusedError);
        return (error as BodyRefusedError).httpStatus;
      };
      expect(await refusal({ 'content-length': '3' }, '[[!')).toBe(400);
      expect(await refusal({ 'content-length': '3' }, '{"a')).toBe(400);
      expect(await refusal({ 'transfer-encoding': 'chunked' }, `[${'1,'.repeat(600)}1]`)).toBe(413);
    });

    it('of whitespace only leaves the body undefined', () => {
      const { request } = arrived({ 'transfer-encoding': 'chunked' }, ' \n ');
      expect(readRequestBody(request)).toBeUndefined();
      expect(request.body).toBeUndefined();
    });
  });

  it('refuses 415 for a body that is not JSON, before reading a byte', async () => {
    const { request, raw } = requestWith({ 'content-length': '2', 'content-type': 'text/plain' });
    raw.push(Buffer.from('{}'));
    const error = await outcome(readRequestBody(request));
    expect((error as BodyRefusedError).httpStatus).toBe(415);
    expect(raw.readableLength).toBe(2);
  });

  it('refuses 413 from the announced length, before reading a byte', async () => {
    const { request } = requestWith({ 'content-length': '1001' });
    const error = await outcome(readRequestBody(request));
    expect((error as BodyRefusedError).httpStatus).toBe(413);
  });
});
