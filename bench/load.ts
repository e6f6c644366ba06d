/**
 * The load generator, its own process (pinned to its own core by run.ts) so that it never
 * competes with the server under test for the CPU. Driven by run.ts over IPC: one message per
 * measurement, one answer back. Both servers get exactly the same requests from it.
 *
 * Only correct answers count: each workload knows the status and the exact byte length of the
 * right answer (records are deterministic, see records.ts), and checks them per response in
 * autocannon's onResponse hook. Comparing lengths is cheap enough not to slow the generator and
 * still catches wrong records, missing or extra matches, and error envelopes.
 */
import { request } from 'node:http';
import { batchBody, ENVELOPE_BASE_LENGTH, newRecordJson, recordId, recordJson, SOURCE_GROUP, sourceCount, sourceOf } from './records';
import type { LoadReply, LoadRequest, Measurement, Workload } from './protocol';

// autocannon ships no types; this is the part used here.
interface AutocannonRequest {
  setupRequest?: (req: { method?: string; path?: string; body?: string; headers?: Record<string, string> }, context: Record<string, unknown>) => object;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}
interface AutocannonResult {
  duration: number;
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as Autocannon;

/** Byte lengths of preloaded record i, and of the W3 answer for each source. */
let recordLength = new Int32Array(0);
let sourceAnswerLength = new Int32Array(0);
let recordsLoaded = 0;
/** Unique ids for W2/W4 across the whole run (both servers, warm-ups, repetitions). */
let nextNew = 0;

function init(records: number): void {
  recordsLoaded = records;
  recordLength = new Int32Array(records);
  sourceAnswerLength = new Int32Array(sourceCount(records));
  for (let i = 0; i < records; i++) recordLength[i] = recordJson(i).length;
  for (let g = 0; g < sourceAnswerLength.length; g++) {
    let total = 1; // "["
    const first = g * SOURCE_GROUP;
    const last = Math.min(first + SOURCE_GROUP, records);
    for (let i = first; i < last; i++) total += recordLength[i] + 1; // record and "," or "]"
    sourceAnswerLength[g] = total;
  }
}

/** The request and the check of its answer, per workload. `expect` is stored in the per-connection context. */
function requestFor(workload: Workload, batch: number): AutocannonRequest {
  switch (workload) {
    case 'W1':
      return {
        setupRequest: (req, context) => {
          const i = Math.floor(Math.random() * recordsLoaded);
          context.expect = recordLength[i] + 2; // "[record]"
          return { ...req, method: 'GET', path: `/event/${recordId(i)}` };
        },
        onResponse: (status, body, context) => check(status === 200 && body.length === context.expect, status, body),
      };
    case 'W2':
      return {
        setupRequest: (req, context) => {
          const seq = nextNew++;
          const id = `new-${seq}`;
          context.expect = ENVELOPE_BASE_LENGTH + id.length + 2;
          return { ...req, method: 'POST', path: '/event', body: newRecordJson(id, seq), headers: { ...req.headers, 'content-type': 'application/json' } };
        },
        onResponse: (status, body, context) => check(status === 201 && body.length === context.expect, status, body),
      };
    case 'W3':
      return {
        setupRequest: (req, context) => {
          // Only sources with a full group, so that every query matches exactly SOURCE_GROUP records.
          const g = Math.floor(Math.random() * Math.floor(recordsLoaded / SOURCE_GROUP));
          context.expect = sourceAnswerLength[g];
          const body = JSON.stringify({ where: { equals: { target: 'source', expr: sourceOf(g * SOURCE_GROUP) } } });
          return { ...req, method: 'GET', path: '/event', body, headers: { ...req.headers, 'content-type': 'application/json' } };
        },
        onResponse: (status, body, context) => check(status === 200 && body.length === context.expect, status, body),
      };
    case 'W4':
      return {
        setupRequest: (req, context) => {
          const parts: string[] = [];
          let expect = 1; // "["
          for (let k = 0; k < batch; k++) {
            const seq = nextNew++;
            const id = `new-${seq}`;
            parts.push(newRecordJson(id, seq));
            expect += ENVELOPE_BASE_LENGTH + id.length + 1; // envelope and "," or "]"
          }
          context.expect = expect;
          return { ...req, method: 'POST', path: '/event', body: `[${parts.join(',')}]`, headers: { ...req.headers, 'content-type': 'application/json' } };
        },
        onResponse: (status, body, context) => check(status === 201 && body.length === context.expect, status, body),
      };
  }
}

let correct = 0;
let wrong = 0;
let firstWrong: string | undefined;

function check(ok: boolean, status: number, body: string): void {
  if (ok) {
    correct++;
    return;
  }
  wrong++;
  firstWrong ??= `HTTP ${status}, ${body.length} bytes: ${body.slice(0, 300)}`;
}

async function measure(message: Extract<LoadRequest, { type: 'measure' }>): Promise<Measurement> {
  correct = 0;
  wrong = 0;
  firstWrong = undefined;
  const result = await autocannon({
    url: message.url,
    connections: message.connections,
    duration: message.seconds,
    headers: { authorization: `Bearer ${message.token}` },
    requests: [requestFor(message.workload, message.batch)],
    // A batch of 1,000 can take seconds under load; a timeout would only hide a slow answer.
    timeout: 120,
  });
  return {
    correct,
    wrong,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
    perSecond: correct / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    firstWrong,
  };
}

/** W5: one streamed GET of the whole family, counted in bytes (the exact total is known), timed to the last byte. */
function readAll(message: Extract<LoadRequest, { type: 'readAll' }>): Promise<Measurement> {
  let expected = 1; // "["
  for (let i = 0; i < message.records; i++) expected += (i < recordsLoaded ? recordLength[i] : recordJson(i).length) + 1;
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    let firstByte = 0;
    const req = request(message.url + '/event', { headers: { authorization: `Bearer ${message.token}` } }, (res) => {
      let bytes = 0;
      let head = '';
      res.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByte = Number(process.hrtime.bigint() - started) / 1e6;
        if (head.length < 300) head += chunk.toString('latin1', 0, 300);
        bytes += chunk.length;
      });
      res.on('end', () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const ok = res.statusCode === 200 && bytes === expected;
        resolve({
          correct: ok ? message.records : 0,
          wrong: ok ? 0 : 1,
          errors: 0,
          timeouts: 0,
          seconds,
          perSecond: ok ? message.records / seconds : 0,
          p50: firstByte,
          p99: seconds * 1000,
          firstWrong: ok ? undefined : `HTTP ${res.statusCode}, ${bytes} bytes (expected ${expected}): ${head.slice(0, 300)}`,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Loads records [from, to) in POSTs of `batch`, a few requests in flight so that the server is
 * never idle while the next body is built. Any answer but 201 stops the run: the measurements
 * that follow would be meaningless.
 */
async function preload(message: Extract<LoadRequest, { type: 'preload' }>): Promise<number> {
  const started = process.hrtime.bigint();
  let next = message.from;
  const worker = async (): Promise<void> => {
    while (next < message.to) {
      const from = next;
      const to = Math.min(from + message.batch, message.to);
      next = to;
      const response = await fetch(message.url + '/event', {
        method: 'POST',
        headers: { authorization: `Bearer ${message.token}`, 'content-type': 'application/json' },
        body: batchBody(from, to),
      });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`preload of records ${from}..${to - 1} into ${message.url}: HTTP ${response.status} ${text.slice(0, 500)}`);
    }
  };
  await Promise.all(Array.from({ length: message.inFlight }, worker));
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function handle(message: LoadRequest): Promise<LoadReply> {
  switch (message.type) {
    case 'init':
      init(message.records);
      return { type: 'ready' };
    case 'measure':
      return { type: 'measured', measurement: await measure(message) };
    case 'preload':
      return { type: 'preloaded', seconds: await preload(message) };
    case 'readAll':
      return { type: 'measured', measurement: await readAll(message) };
  }
}

process.on('message', (message: LoadRequest) => {
  handle(message).then(
    (reply) => process.send!(reply),
    (error: unknown) => process.send!({ type: 'failed', error: error instanceof Error ? error.stack ?? error.message : String(error) }),
  );
});
// Leave when the orchestrator goes away, however it went.
process.on('disconnect', () => process.exit(0));
