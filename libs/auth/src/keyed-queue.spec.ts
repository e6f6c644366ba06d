import { KeyedQueue } from './keyed-queue';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedQueue', () => {
  it('runs tasks sharing a key one at a time, in arrival order, and others at once', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const gates: Record<string, () => void> = {};
    const task = (name: string) => () =>
      new Promise<void>((resolve) => {
        log.push(`start ${name}`);
        gates[name] = () => {
          log.push(`end ${name}`);
          resolve();
        };
      });
    const first = queue.run(['user:a', 'address:1'], task('first'));
    const second = queue.run(['user:a', 'address:2'], task('second'));
    const third = queue.run(['user:b', 'address:1'], task('third'));
    const other = queue.run(['user:c', 'address:3'], task('other'));
    await tick();
    expect(log).toEqual(['start first', 'start other']);
    gates.first();
    await tick();
    expect(log).toEqual(['start first', 'start other', 'end first', 'start second', 'start third']);
    gates.second();
    gates.third();
    gates.other();
    await Promise.all([first, second, third, other]);
    expect(queue.size).toBe(0);
  });

  it('goes on after a task that failed, and passes the failure to its caller', async () => {
    const queue = new KeyedQueue();
    const failed = queue.run(['k'], () => Promise.reject(new Error('wrong password')));
    const next = queue.run(['k'], () => Promise.resolve('checked'));
    await expect(failed).rejects.toThrow('wrong password');
    await expect(next).resolves.toBe('checked');
    expect(queue.size).toBe(0);
  });
});
