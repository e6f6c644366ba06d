import type { FastifyReply } from 'fastify';
import type { HttpAnswer } from './http-answer';

interface WaitingAnswer {
  readonly answer: HttpAnswer;
  readonly reply: FastifyReply;
  readonly sent: () => void;
  readonly failed: (error: unknown) => void;
}

/**
 * Holds the answers finished during one turn of the event loop and writes them together at its
 * end (`setImmediate` runs once the poll phase has handled every socket it found readable).
 *
 * Why: a socket write that wakes a client sleeping on another core costs the writer a
 * cross-core wake-up, which on a VM is an IPI and a VM exit: `perf` put 27 % of the service's CPU
 * on W1 in `writev`, about 20 µs per answer. Written back to back, only the first answer of a
 * turn wakes the client; the rest find it awake. W1 went from 12.4k to 22.3k req/s on the same
 * machine (README, Performance). An answer waits at most for the rest of its turn.
 */
export class AnswerBatch {
  private waiting: WaitingAnswer[] = [];

  private readonly writeAll = (): void => {
    const waiting = this.waiting;
    this.waiting = [];
    for (const { answer, reply, sent, failed } of waiting) {
      try {
        answer.writeTo(reply);
        sent();
      } catch (error) {
        failed(error);
      }
    }
  };

  /**
   * Settles once the answer is written (or its write threw, which then reaches the exception
   * filter as if thrown by the handler): Nest's route handler and Fastify wait for it, so neither
   * takes the request for unanswered.
   */
  write(answer: HttpAnswer, reply: FastifyReply): Promise<void> {
    return new Promise((sent, failed) => {
      if (this.waiting.push({ answer, reply, sent, failed }) === 1) setImmediate(this.writeAll);
    });
  }
}
