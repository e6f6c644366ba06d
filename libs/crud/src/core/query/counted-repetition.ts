/**
 * The largest count of a counted repetition (`{n}`, `{n,}`, `{n,m}`) in an RE2 pattern. RE2 runs
 * in linear time, but unrolls each counted repetition into its program, so the count multiplies
 * both the compile cost and the per-character cost of every match (docs/query-language.md caps it).
 * Braces that RE2 reads literally are skipped: escaped ones, those inside a character class or
 * `\Q...\E`, and the braces of `\p{Greek}` and `\x{41}`; a `{` not followed by a count is literal.
 */
export function largestRepeatCount(pattern: string): number {
  let largest = 0;
  let at = 0;
  while (at < pattern.length) {
    const char = pattern[at];
    if (char === '\\') {
      at = afterEscape(pattern, at);
    } else if (char === '[') {
      at = afterClass(pattern, at);
    } else if (char === '{') {
      COUNT.lastIndex = at;
      const count = COUNT.exec(pattern);
      if (count) {
        largest = Math.max(largest, Number(count[1]), count[2] ? Number(count[2]) : 0);
        at = COUNT.lastIndex;
      } else {
        at += 1;
      }
    } else {
      at += 1;
    }
  }
  return largest;
}

const COUNT = /\{(\d+)(?:,(\d*))?\}/y;

/** The position after the escape starting at `at` (a backslash). */
function afterEscape(pattern: string, at: number): number {
  const next = pattern[at + 1];
  if (next === 'Q') {
    const end = pattern.indexOf('\\E', at + 2);
    return end === -1 ? pattern.length : end + 2;
  }
  if ((next === 'p' || next === 'P' || next === 'x') && pattern[at + 2] === '{') {
    const end = pattern.indexOf('}', at + 3);
    return end === -1 ? pattern.length : end + 1;
  }
  return at + 2;
}

/** The position after the character class starting at `at` (a `[`). */
function afterClass(pattern: string, at: number): number {
  let position = at + 1;
  if (pattern[position] === '^') position += 1;
  // A `]` right after the opening (or after `^`) is a member, not the end.
  if (pattern[position] === ']') position += 1;
  while (position < pattern.length) {
    const char = pattern[position];
    if (char === '\\') {
      position = afterEscape(pattern, position);
    } else if (char === '[' && pattern[position + 1] === ':') {
      const end = pattern.indexOf(':]', position + 2);
      position = end === -1 ? position + 1 : end + 2;
    } else if (char === ']') {
      return position + 1;
    } else {
      position += 1;
    }
  }
  return position;
}
