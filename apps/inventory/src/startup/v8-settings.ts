import { setFlagsFromString } from 'node:v8';

/** `--allocation-site-pretenuring` or its `no-` form, as node takes it (dashes or underscores). */
const PRETENURING_FLAG = /^--(no[-_])?allocation[-_]site[-_]pretenuring$/;

/*
 * V8's allocation-site pretenuring, off however the service was started (README, "Production
 * start"). `npm start` and the README's container command pass `--no-allocation-site-pretenuring`;
 * this covers a start without it (`node dist/apps/inventory/src/main.js`, a process manager's own
 * command), which would promote each read's rows again (PostgreSQL W3 p99 20–22 ms instead of
 * 3–5). Unlike the young generation's size, which V8 fixes when it creates the heap, this flag is
 * read at each decision about a site, so set here, before the service allocates anything of its
 * own, it takes effect (checked on Node 20, 22 and 24 with `--trace-pretenuring-statistics`). A
 * command line that names the flag either way keeps its choice.
 */
if (!process.execArgv.some((arg) => PRETENURING_FLAG.test(arg))) setFlagsFromString('--no-allocation-site-pretenuring');
