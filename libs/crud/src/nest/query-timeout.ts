/** The DI token of the time budget (ms) of one read or delete query, set by `CrudModule.forRoot`. */
export const QUERY_TIMEOUT_MS = Symbol('QUERY_TIMEOUT_MS');

/** docs/running.md: `INVENTORY_QUERY_TIMEOUT` defaults to 10 s. */
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;

/** The DI token of the largest query accepted in `?q=` (bytes): the body limit, `INVENTORY_BODY_LIMIT`. */
export const QUERY_SIZE_LIMIT = Symbol('QUERY_SIZE_LIMIT');

/** docs/running.md: `INVENTORY_BODY_LIMIT` defaults to 16 MB. */
export const DEFAULT_QUERY_SIZE_LIMIT = 16 * 1024 * 1024;
