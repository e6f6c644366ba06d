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

/**
 * Text that every value a `reg_exp` pattern matches begins with (the pattern covers the whole
 * value), so that an index of texts can narrow the candidates; '' when the pattern does not
 * tell. Only plain characters count, up to the first character RE2 gives a meaning: one that a
 * quantifier follows may be absent, and an alternation anywhere (or a leading group, which is
 * also where flags like `(?i)` go) leaves nothing certain.
 */
export function literalPrefix(pattern: string): string {
  if (pattern.includes('|')) return '';
  const characters = Array.from(pattern);
  let length = 0;
  while (length < characters.length && !REGEXP_SYNTAX.has(characters[length])) length++;
  if (length < characters.length && QUANTIFIERS.has(characters[length])) length--;
  return characters.slice(0, Math.max(0, length)).join('');
}

const REGEXP_SYNTAX = new Set(['\\', '.', '[', ']', '(', ')', '{', '}', '*', '+', '?', '|', '^', '$']);
const QUANTIFIERS = new Set(['*', '+', '?', '{']);

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
