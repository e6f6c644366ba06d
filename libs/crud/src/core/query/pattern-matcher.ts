import { RE2JS } from 're2js';

/**
 * Patterns run on RE2 (linear time, no backtracking) so that no pattern a client sends can
 * stall the process, whatever the value it is matched against.
 */
export type PatternMatcher = (text: string) => boolean;

export function regExpMatcher(pattern: string): PatternMatcher {
  const compiled = RE2JS.compile(pattern);
  return (text) => compiled.matches(text);
}

/** `*` is any run, `?` one character; the pattern must cover the whole value. */
export function wildcardMatcher(pattern: string): PatternMatcher {
  return regExpMatcher(wildcardToRegExp(pattern));
}

export function wildcardToRegExp(pattern: string): string {
  let out = '';
  for (const char of pattern) {
    if (char === '*') out += '(?s:.*)';
    else if (char === '?') out += '(?s:.)';
    else out += RE2JS.quote(char);
  }
  return out;
}
