/** See `afterQuietTurn`. */
export const MAX_GROUP_TURNS = 4;

/**
 * Calls `flush` at the first turn of the event loop that did not make `size()` grow, or after
 * `MAX_GROUP_TURNS` turns, whichever comes first: the end of a group of writes that share a
 * commit. Ten clients answered together send their next writes back together, but these
 * arrive over a few turns; flushing at the first turn split them into groups of ~5, each paying
 * a commit (SQLite W2: 8.0–8.8k against 9.5–10.3k creates/s, README "Performance"). A lone
 * write still goes at the first turn, as that turn brings nothing new.
 */
export function afterQuietTurn(size: () => number, flush: () => void): void {
  let seen = size();
  let turns = 0;
  const turn = (): void => {
    turns += 1;
    if (size() > seen && turns < MAX_GROUP_TURNS) {
      seen = size();
      setImmediate(turn);
      return;
    }
    flush();
  };
  setImmediate(turn);
}
