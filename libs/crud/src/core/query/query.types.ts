/** A JSON value as it arrives in a body: what records and query operands are made of. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
export type JsonScalar = string | number | boolean | null;

/** A dotted field path split into segments; `['id']` is the record id. */
export type FieldPath = readonly string[];

export type CompareOperator = 'equals' | 'lt' | 'lte' | 'gt' | 'gte';
export type PatternOperator = 'reg_exp' | 'wildcard';

export type Condition =
  | { kind: 'compare'; op: CompareOperator; path: FieldPath; value: JsonValue }
  | { kind: 'pattern'; op: PatternOperator; path: FieldPath; pattern: string }
  | { kind: 'in'; path: FieldPath; values: JsonValue[] }
  | { kind: 'exists'; path: FieldPath }
  | { kind: 'and'; clauses: Condition[] }
  | { kind: 'or'; clauses: Condition[] }
  | { kind: 'not'; clause: Condition };

export interface OrderTerm {
  path: FieldPath;
  descending: boolean;
}

/** A parsed, validated query. `limit` is zero-based and inclusive at both ends, as in the contract. */
export interface RecordQuery {
  select?: FieldPath[];
  where?: Condition;
  order: OrderTerm[];
  offset: number;
  count?: number;
}
