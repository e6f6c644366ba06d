/** A module of pg's own (its package exports `pg/lib/*`) that @types/pg does not describe. */
declare module 'pg/lib/utils' {
  /** A parameter as pg's queries send it: null, a Buffer, or its text (a list as a PostgreSQL array literal). */
  export function prepareValue(value: unknown): unknown;
}
