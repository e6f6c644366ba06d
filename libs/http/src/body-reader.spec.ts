import fastify, { FastifyRequest } from 'fastify';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { BodyRefusedError } from './body-refused.error';
import { BodyReaderOptions, readBodiesAsJson, readRequestBody } from './body-reader';
import { RequestAbortedError } from './request-aborted.error';

const options: BodyReaderOptions = {
  limitBytes: 1000,
  inspect: () => undefined,
  scanner: () => ({
    push: (chunk: Buffer) => {
      if (chunk.includes('!')) throw new Error('the scanner refuses "!"');
    },
  }),
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

  it('stops at the first chunk the scanner refuses, without waiting for the rest', async () => {
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

  it('refuses 413 from the announced length, before reading a byte', async () => {
    const { request } = requestWith({ 'content-length': '1001' });
    const error = await outcome(readRequestBody(request));
    expect((error as BodyRefusedError).httpStatus).toBe(413);
  });
});
