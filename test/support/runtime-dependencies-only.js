/**
 * Preloaded (`node --require`, or NODE_OPTIONS) into a process under test: resolving any package
 * that package-lock.json marks dev-only fails as if it were not installed. A process that works
 * with it works after `npm prune --omit=dev`, which removes exactly those packages.
 * (TypeScript and ts-node are "devOptional" there, optional peers of typeorm: npm keeps them, so
 * this keeps them too.) Plain JavaScript: it runs before anything could compile TypeScript.
 */
'use strict';
const Module = require('node:module');
const { join, relative, sep } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const lock = require(join(ROOT, 'package-lock.json'));
const devOnly = new Set(Object.entries(lock.packages).filter(([, entry]) => entry.dev === true).map(([key]) => key));

/** `node_modules/a/node_modules/@s/b/lib/x.js` → `node_modules/a/node_modules/@s/b` */
function packageKey(file) {
  const path = relative(ROOT, file).split(sep).join('/');
  const at = path.lastIndexOf('node_modules/');
  if (path.startsWith('..') || at < 0) return undefined;
  const rest = path.slice(at + 'node_modules/'.length).split('/');
  return path.slice(0, at) + 'node_modules/' + rest.slice(0, rest[0].startsWith('@') ? 2 : 1).join('/');
}

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const file = resolve.call(this, request, ...rest);
  const key = packageKey(file);
  if (key !== undefined && devOnly.has(key)) {
    const error = new Error(`Cannot find module '${request}' (dev dependency ${key}, absent in production)`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return file;
};
