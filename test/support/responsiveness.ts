/**
 * How long /health (or a get-by-id) may wait in the tests that load the service on purpose.
 * The contract's bound is one second for the service; these tests share two cores with the
 * other Jest worker (and PostgreSQL), which can take the CPU for a few hundred milliseconds on
 * its own, so they allow one more second. The stalls they guard against were 4–12 s.
 */
export const RESPONSIVE_MS = 2000;
