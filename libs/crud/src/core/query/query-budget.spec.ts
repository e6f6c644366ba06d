import { setTimeout as sleep } from 'node:timers/promises';
import { QueryAbortedError, QueryBudget, QueryTimeoutError } from './query-budget';

describe('QueryBudget', () => {
  it("words the contract's answer with the configured seconds", () => {
    expect(new QueryTimeoutError(10_000).message).toBe('query stopped after 10 s: narrow the where or add a limit');
    expect(new QueryTimeoutError(1_500).message).toBe('query stopped after 1.5 s: narrow the where or add a limit');
    expect(new QueryTimeoutError(10_000).httpStatus).toBe(400);
  });

  it('checks pass until the budget is spent, then throw the timeout', async () => {
    const budget = new QueryBudget(60);
    expect(() => budget.check()).not.toThrow();
    expect(budget.stopped).toBe(false);
    await sleep(80);
    expect(budget.stopped).toBe(true);
    expect(() => budget.check()).toThrow(QueryTimeoutError);
  });

  it('stops at once when the client goes away', () => {
    const gone = new AbortController();
    const budget = new QueryBudget(60_000, gone.signal);
    expect(() => budget.check()).not.toThrow();
    gone.abort();
    expect(budget.stopped).toBe(true);
    expect(() => budget.check()).toThrow(QueryAbortedError);
  });

  it('a slice is spent after its time and starts again on demand', async () => {
    const budget = new QueryBudget(60_000, undefined, 30);
    expect(budget.sliceSpent).toBe(false);
    await sleep(40);
    expect(budget.sliceSpent).toBe(true);
    budget.startSlice();
    expect(budget.sliceSpent).toBe(false);
  });

  it('onStop fires once at the deadline, once on abort, never after its undo', async () => {
    const atDeadline = jest.fn();
    new QueryBudget(30).onStop(atDeadline);
    const gone = new AbortController();
    const onAbort = jest.fn();
    new QueryBudget(60_000, gone.signal).onStop(onAbort);
    gone.abort();
    expect(onAbort).toHaveBeenCalledTimes(1);
    const undone = jest.fn();
    new QueryBudget(30).onStop(undone)();
    await sleep(60);
    expect(atDeadline).toHaveBeenCalledTimes(1);
    expect(undone).not.toHaveBeenCalled();
    const already = new AbortController();
    already.abort();
    const late = jest.fn();
    new QueryBudget(60_000, already.signal).onStop(late);
    expect(late).toHaveBeenCalledTimes(1);
  });
});
