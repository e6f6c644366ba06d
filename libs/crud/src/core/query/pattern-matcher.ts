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
  const required = requiredTexts(pattern);
  if (required === undefined) return (text) => program.matches(text);
  // A native substring search turns most texts away before the automaton runs: `.*-00012[0-9]`
  // over 100k hosts.
  return (text) => holdsRequired(required, text) && program.matches(text);
}

/**
 * Texts that every value a pattern matches holds somewhere: one text, all of several, or any of
 * several. Undefined when the pattern names none (`.*`, `[a-z]+`, or anything under `(?i)`).
 */
export type RequiredText = string | { all: RequiredText[] } | { any: RequiredText[] };

/** The most texts a `RequiredText` keeps: each is a substring search (or an SQL condition). */
export const REQUIRED_TEXTS_KEPT = 16;

/**
 * RE2's own prefilter of the compiled pattern (re2js builds it for unanchored searches and skips
 * it for the anchored match the query language asks for): the literals outside optional parts
 * and not under case folding, joined as the pattern's concatenations and alternations join them.
 * Holds for a whole-value match, which is one of the matches the prefilter describes.
 */
export function requiredTexts(pattern: string): RequiredText | undefined {
  const prefilter = (compilePattern(pattern).re2Input as { prefilter: Prefilter | null }).prefilter;
  return prefilter === null ? undefined : keptWithin(fromPrefilter(prefilter), { left: REQUIRED_TEXTS_KEPT });
}

/** `required` less what every text starting with `prefix` holds already. */
export function beyondPrefix(required: RequiredText | undefined, prefix: string): RequiredText | undefined {
  if (required === undefined || prefix === '') return required;
  if (typeof required === 'string') return prefix.includes(required) ? undefined : required;
  if ('any' in required) return required.any.some((one) => beyondPrefix(one, prefix) === undefined) ? undefined : required;
  const all = required.all.map((one) => beyondPrefix(one, prefix)).filter((one) => one !== undefined);
  return all.length === 0 ? undefined : all.length === 1 ? all[0] : { all };
}

export function holdsRequired(required: RequiredText, text: string): boolean {
  if (typeof required === 'string') return text.includes(required);
  if ('all' in required) return required.all.every((one) => holdsRequired(one, text));
  return required.any.some((one) => holdsRequired(one, text));
}

/** re2js's `Prefilter` (not exported by the package; `re2Input.prefilter` is declared `any`). */
interface Prefilter {
  type: number;
  str: string;
  subs: Prefilter[];
}

const PREFILTER_EXACT = 1;
const PREFILTER_AND = 2;
const PREFILTER_OR = 3;

function fromPrefilter(prefilter: Prefilter): RequiredText | undefined {
  switch (prefilter.type) {
    case PREFILTER_EXACT:
      return prefilter.str;
    case PREFILTER_AND: {
      const all = prefilter.subs.map(fromPrefilter).filter((one) => one !== undefined);
      return all.length === 0 ? undefined : { all };
    }
    case PREFILTER_OR: {
      const any = prefilter.subs.map(fromPrefilter);
      return any.some((one) => one === undefined) ? undefined : { any: any as RequiredText[] };
    }
    default:
      return undefined;
  }
}

/**
 * At most `budget.left` texts: a condition of `all` may drop some (what is left is still
 * required), one of `any` may not (a dropped text could be the one a value holds).
 */
function keptWithin(required: RequiredText | undefined, budget: { left: number }): RequiredText | undefined {
  if (required === undefined) return undefined;
  if (typeof required === 'string') {
    if (budget.left === 0) return undefined;
    budget.left--;
    return required;
  }
  if ('any' in required) {
    if (textCount(required) > budget.left) return undefined;
    budget.left -= textCount(required);
    return required;
  }
  const all = required.all.map((one) => keptWithin(one, budget)).filter((one) => one !== undefined);
  return all.length === 0 ? undefined : all.length === 1 ? all[0] : { all };
}

function textCount(required: RequiredText): number {
  if (typeof required === 'string') return 1;
  const parts = 'all' in required ? required.all : required.any;
  return parts.reduce((sum, one) => sum + textCount(one), 0);
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
