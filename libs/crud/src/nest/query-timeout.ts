/** The DI token of the time budget (ms) of one read or delete query, set by `CrudModule.forRoot`. */
export const QUERY_TIMEOUT_MS = Symbol('QUERY_TIMEOUT_MS');

/** docs/running.md: `INVENTORY_QUERY_TIMEOUT` defaults to 10 s. */
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;
