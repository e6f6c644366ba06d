import type { FastifyReply } from 'fastify';
import { AnswerBatch } from './answer-batch';
import { HttpAnswer } from './http-answer';

/** Records, in one shared log, which answer each reply sent and when. */
function recordingReply(name: string, log: string[], refuse = false): FastifyReply {
  const reply = {
    code: () => reply,
    headers: () => reply,
    type: () => reply,
    send: (body?: string) => {
      if (refuse) throw new TypeError(`invalid header for ${name}`);
      log.push(`${name}:${body}`);
      return reply;
    },
  };
  return reply as unknown as FastifyReply;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('AnswerBatch', () => {
  it('writes nothing during the turn, then every answer of the turn together, in order', async () => {
    const log: string[] = [];
    const batch = new AnswerBatch();
    const first = batch.write(new HttpAnswer(200, '[1]'), recordingReply('a', log));
    const second = batch.write(new HttpAnswer(201, '[2]'), recordingReply('b', log));
    log.push('end of handlers');
    await Promise.all([first, second]);
    expect(log).toEqual(['end of handlers', 'a:[1]', 'b:[2]']);
  });

  it('starts a new batch for answers finished after a write', async () => {
    const log: string[] = [];
    const batch = new AnswerBatch();
    await batch.write(new HttpAnswer(200, '[1]'), recordingReply('a', log));
    const later = batch.write(new HttpAnswer(200, '[2]'), recordingReply('b', log));
    expect(log).toEqual(['a:[1]']);
    await later;
    expect(log).toEqual(['a:[1]', 'b:[2]']);
  });

  it('rejects only the answer whose write threw, so that its handler fails as if it threw', async () => {
    const log: string[] = [];
    const batch = new AnswerBatch();
    const refused = batch.write(new HttpAnswer(200, '[1]'), recordingReply('a', log, true));
    const written = batch.write(new HttpAnswer(200, '[2]'), recordingReply('b', log));
    await expect(refused).rejects.toThrow('invalid header for a');
    await expect(written).resolves.toBeUndefined();
    expect(log).toEqual(['b:[2]']);
  });

  it('settles each answer only once it is written', async () => {
    const log: string[] = [];
    let settled = false;
    void new AnswerBatch().write(new HttpAnswer(200, '[1]'), recordingReply('a', log)).then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await nextTurn();
    expect(settled).toBe(true);
    expect(log).toEqual(['a:[1]']);
  });
});
