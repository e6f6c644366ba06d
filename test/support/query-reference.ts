/**
 * The query language of docs/query-language.md written out plainly, as a reference for property tests:
 * no SQL, no index, no RE2, and no code shared with the service. Records are what JSON.parse
 * makes of the stored text.
 */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type Doc = { [key: string]: Json };

const own = (value: object, key: string) => Object.prototype.hasOwnProperty.call(value, key);
const isObject = (value: Json | undefined): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every value a dotted path reaches. Lists are looked through at every step; a list at the end
 * also stands for all its elements (at any depth), so "any element matches".
 */
export function reach(doc: Json, path: readonly string[]): Json[] {
  const out: Json[] = [];
  const walk = (value: Json, at: number) => {
    if (at === path.length) {
      if (Array.isArray(value)) out.push(...leaves(value));
      out.push(value);
    } else if (Array.isArray(value)) {
      for (const element of value) walk(element, at);
    } else if (isObject(value) && own(value, path[at])) {
      walk(value[path[at]], at + 1);
    }
  };
  walk(doc, 0);
  return out;
}

function leaves(list: Json[]): Json[] {
  return list.flatMap((element) => (Array.isArray(element) ? leaves(element) : [element]));
}

export function sameJson(a: Json, b: Json): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((element, i) => sameJson(element, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => own(b, key) && sameJson(a[key], b[key]));
  }
  return a === b;
}

/** The text a scalar compares by when not numerically: a string itself, a number or boolean its JSON. */
export function textOf(value: Json): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  return undefined;
}

/** Unicode code point order (the byte order of UTF-8). */
export function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (char) => char.codePointAt(0)!);
  const y = Array.from(b, (char) => char.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

function equalsExpr(value: Json, expr: Json): boolean {
  if (sameJson(value, expr)) return true;
  return typeof expr === 'string' && (typeof value === 'number' || typeof value === 'boolean') && JSON.stringify(value) === expr;
}

function compare(op: string, value: Json, expr: Json): boolean {
  let order: number;
  if (typeof value === 'number' && typeof expr === 'number') order = value - expr;
  else {
    const a = textOf(value);
    const b = textOf(expr);
    if (a === undefined || b === undefined) return false;
    order = byCodePoint(a, b);
  }
  return { lt: order < 0, lte: order <= 0, gt: order > 0, gte: order >= 0 }[op as 'lt'];
}

/** `*` any run, `?` one character (code point), over the whole text. */
export function wildcardMatches(pattern: string, text: string): boolean {
  const p = Array.from(pattern);
  const t = Array.from(text);
  let row = new Array<boolean>(t.length + 1).fill(false);
  row[0] = true;
  for (const char of p) {
    const next = new Array<boolean>(t.length + 1).fill(false);
    if (char === '*') {
      for (let j = 0; j <= t.length; j++) next[j] = row[j] || (j > 0 && next[j - 1]);
    } else {
      for (let j = 1; j <= t.length; j++) next[j] = row[j - 1] && (char === '?' || t[j - 1] === char);
    }
    row = next;
  }
  return row[t.length];
}

/** A where clause as the JSON a client sends. */
export type Clause = { [operator: string]: Json };

export function matches(clause: Clause, doc: Doc): boolean {
  return Object.keys(clause).every((operator) => matchesOne(operator, clause[operator], doc));
}

function matchesOne(operator: string, operand: Json, doc: Doc): boolean {
  const list = (value: Json): Clause[] =>
    Array.isArray(value) ? (value as Clause[]) : Object.entries(value as Doc).map(([key, inner]) => ({ [key]: inner }));
  if (operator === 'and') return list(operand).every((clause) => matches(clause, doc));
  if (operator === 'or') return list(operand).some((clause) => matches(clause, doc));
  if (operator === 'not') return !matches(operand as Clause, doc);
  const { target, expr } = operand as { target: string; expr: Json };
  const values = reach(doc, target.split('.'));
  switch (operator) {
    case 'exists':
      return values.some((value) => value !== null && !Array.isArray(value));
    case 'equals':
      return values.some((value) => equalsExpr(value, expr));
    case 'in':
      return values.some((value) => (expr as Json[]).some((one) => equalsExpr(value, one)));
    case 'wildcard':
      return values.some((value) => textOf(value) !== undefined && wildcardMatches(expr as string, textOf(value)!));
    case 'reg_exp': {
      const pattern = new RegExp(`^(?:${expr as string})$`, 'u');
      return values.some((value) => textOf(value) !== undefined && pattern.test(textOf(value)!));
    }
    default:
      return values.some((value) => compare(operator, value, expr));
  }
}

export interface OrderTermJson {
  target: string;
  mode?: 'asc' | 'desc';
}

/**
 * Query order: per term, the record's smallest (ascending) or largest (descending) number at the
 * path, then its smallest or largest text (numbers and booleans by their JSON text), records
 * without one last either way; the id compares as text; ties keep arrival order.
 */
export function ordered(docs: Doc[], order: OrderTermJson[]): Doc[] {
  const keyed = docs.map((doc, arrival) => ({ doc, arrival, keys: order.map((term) => keysOf(doc, term)) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < order.length; i++) {
      const descending = order[i].mode === 'desc';
      for (let k = 0; k < a.keys[i].length; k++) {
        const x = a.keys[i][k];
        const y = b.keys[i][k];
        if (x === y) continue;
        if (x === null) return 1;
        if (y === null) return -1;
        const c = typeof x === 'number' ? x - (y as number) : byCodePoint(x, y as string);
        if (c !== 0) return descending ? -c : c;
      }
    }
    return a.arrival - b.arrival;
  });
  return keyed.map((entry) => entry.doc);
}

function keysOf(doc: Doc, term: OrderTermJson): (number | string | null)[] {
  if (term.target === 'id') return [doc.id as string];
  const values = reach(doc, term.target.split('.'));
  const numbers = values.filter((value): value is number => typeof value === 'number');
  const texts = values
    .map(textOf)
    .filter((text): text is string => text !== undefined)
    .sort(byCodePoint);
  const descending = term.mode === 'desc';
  const number = numbers.length === 0 ? null : descending ? Math.max(...numbers) : Math.min(...numbers);
  const text = texts.length === 0 ? null : descending ? texts[texts.length - 1] : texts[0];
  return [number === 0 ? 0 : number, text];
}

/** `select`: exactly the named paths (a path below one kept whole adds nothing), plus the id. */
export function project(doc: Doc, select: string[]): Doc {
  const paths = [['id'], ...select.map((path) => path.split('.'))];
  const kept = paths.filter(
    (path) => !paths.some((other) => other.length < path.length && other.every((segment, i) => segment === path[i])),
  );
  return (pick(doc, kept) as Doc | undefined) ?? { id: doc.id };
}

function pick(value: Json, paths: string[][]): Json | undefined {
  if (Array.isArray(value)) {
    const picked = value.map((element) => pick(element, paths)).filter((element): element is Json => element !== undefined);
    return picked.length > 0 ? picked : undefined;
  }
  if (!isObject(value)) return undefined;
  const out: Doc = {};
  let any = false;
  for (const key of Object.keys(value)) {
    const below = paths.filter((path) => path[0] === key);
    if (below.length === 0) continue;
    const whole = below.some((path) => path.length === 1);
    const part = whole
      ? value[key]
      : pick(
          value[key],
          below.map((path) => path.slice(1)),
        );
    if (part === undefined) continue;
    Object.defineProperty(out, key, { value: part, enumerable: true, writable: true, configurable: true });
    any = true;
  }
  return any ? out : undefined;
}

/** The whole query: matches in query order, then the window. */
export function answer(docs: Doc[], query: { where?: Clause; order?: OrderTermJson[]; limit?: { from: number; to?: number } }): Doc[] {
  const found = ordered(
    docs.filter((doc) => !query.where || matches(query.where, doc)),
    query.order ?? [],
  );
  const from = query.limit?.from ?? 0;
  return found.slice(from, query.limit?.to === undefined ? undefined : query.limit.to + 1);
}
