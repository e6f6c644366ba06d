import { RE2JS } from 're2js';

/**
 * Patterns run on RE2 (linear time, no backtracking) so that no pattern a client sends can
 * stall the process, whatever the value it is matched against.
 */
export type PatternMatcher = (text: string) => boolean;

/**
 * Compiled patterns, most recently used last. Compiling is the costly part of a pattern
 * (~1-3 ms for one with counted repetitions, 300 ms for a query of 100 of them): the parser
 * compiles each pattern to validate it, and the evaluator then reuses that compilation, as do
 * the next queries that send the same pattern.
 */
const compiled = new Map<string, RE2JS>();
const COMPILED_KEPT = 128;

/** Throws RE2JS's syntax errors for a pattern RE2 refuses. */
export function compilePattern(pattern: string): RE2JS {
  let program = compiled.get(pattern);
  if (program) {
    compiled.delete(pattern);
  } else {
    program = RE2JS.compile(pattern);
    if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
  }
  compiled.set(pattern, program);
  return program;
}

export function regExpMatcher(pattern: string): PatternMatcher {
  const program = compilePattern(pattern);
  return (text) => program.matches(text);
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
