/**
 * Resolves `@inventory/<lib>` to `libs/<lib>/src` from this file's own place, so the compiled
 * service (dist/apps/inventory/src) finds dist/libs/*, and ts-node finds libs/* in the sources,
 * with no tsconfig.json, TS_NODE_BASEURL or dev dependency at run time. Entry points import it
 * first, before anything that imports a library.
 */
import { join } from 'node:path';
import { register } from 'tsconfig-paths';

register({ baseUrl: join(__dirname, '..', '..', '..'), paths: { '@inventory/*': ['libs/*/src'] } });
