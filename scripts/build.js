#!/usr/bin/env node
/**
 * Compiles the service into dist/ with tsc, and knows whether dist/ is up to date, so that
 * `npm start` and the CLIs run compiled JavaScript at once instead of compiling on every start.
 *
 *   node scripts/build.js                          always compile (`npm run build`: the type check)
 *   node scripts/build.js --if-stale               compile only if a source changed since the last build
 *   node scripts/build.js --if-stale --at-install  the same from `npm install`; a production install
 *                                                  (no dev dependencies) skips it instead of failing
 *
 * Plain JavaScript on purpose: it must run where only the runtime dependencies are installed.
 * Everything it prints goes to stderr, so `npm run token --silent` keeps a clean stdout.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const DIST = join(ROOT, 'dist');
/** Written after a successful build, with the build's start time as its mtime. */
const STAMP = join(DIST, '.build-stamp');
const ENTRY = join(DIST, 'apps', 'inventory', 'src', 'main.js');
/** What tsconfig.build.json compiles, plus the configs that shape the output. */
const SOURCE_DIRS = ['apps', 'libs'];
const SOURCE_FILES = ['ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json'];
/** tsconfig.build.json excludes these: editing a test must not trigger a build. */
const NOT_COMPILED = /\.(spec|e2e-spec|fixtures)\.ts$/;

function say(line) {
  process.stderr.write(`build: ${line}\n`);
}

/** A source newer than `since`, or undefined when there is none (stops at the first one found). */
function newerSource(since) {
  for (const file of SOURCE_FILES) {
    const path = join(ROOT, file);
    if (existsSync(path) && statSync(path).mtimeMs > since) return file;
  }
  const pending = SOURCE_DIRS.map((dir) => join(ROOT, dir));
  while (pending.length > 0) {
    const dir = pending.pop();
    // A directory's own mtime changes when a file in it is added, deleted or renamed.
    if (statSync(dir).mtimeMs > since) return `${dir.slice(ROOT.length + 1)}/`;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (/\.(ts|json)$/.test(entry.name) && !NOT_COMPILED.test(entry.name) && statSync(path).mtimeMs > since) {
        return path.slice(ROOT.length + 1);
      }
    }
  }
  return undefined;
}

/** Why dist/ must be rebuilt, or undefined when it is up to date. */
function staleness() {
  if (!existsSync(ENTRY)) return 'dist/ has no build yet';
  if (!existsSync(STAMP)) return 'dist/ was not built by this script';
  const changed = newerSource(statSync(STAMP).mtimeMs);
  return changed === undefined ? undefined : `${changed} changed since the last build`;
}

/**
 * tsc, when the dev dependencies the build needs are installed. TypeScript alone does not say so:
 * npm keeps it (and @types/node) after `npm prune --omit=dev`, as optional peers of typeorm and
 * ts-node, while the other @types packages go and tsc then fails with type errors.
 */
function typescriptCompiler() {
  const { devDependencies = {} } = require(join(ROOT, 'package.json'));
  try {
    for (const name of Object.keys(devDependencies).filter((dependency) => dependency.startsWith('@types/'))) {
      require.resolve(`${name}/package.json`, { paths: [ROOT] });
    }
    return require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  } catch {
    return undefined;
  }
}

function compile(tsc) {
  const startedAt = new Date();
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) return result.status ?? 1;
  mkdirSync(DIST, { recursive: true });
  writeFileSync(STAMP, `${startedAt.toISOString()}\n`);
  // Sources saved while tsc ran are newer than this, so the next start builds again.
  utimesSync(STAMP, startedAt, startedAt);
  return 0;
}

function main(args) {
  const ifStale = args.includes('--if-stale');
  const atInstall = args.includes('--at-install');
  const reason = ifStale ? staleness() : 'asked for';
  if (reason === undefined) return 0;
  const tsc = typescriptCompiler();
  if (tsc === undefined) {
    // A production install (npm install --omit=dev, or after npm prune --omit=dev).
    if (atInstall) {
      say('dev dependencies are not installed (production install): not building; dist/ must come from a build with them.');
      return 0;
    }
    if (ifStale && existsSync(ENTRY)) {
      say(`${reason}, but dev dependencies are not installed (production install): running the existing dist/.`);
      return 0;
    }
    say(
      existsSync(ENTRY)
        ? 'cannot build: dev dependencies are not installed (npm install).'
        : 'dist/ is missing and dev dependencies are not installed: build with them (npm install), then npm prune --omit=dev.',
    );
    return 1;
  }
  if (ifStale) say(`compiling into dist/ (${reason}) ...`);
  return compile(tsc);
}

process.exitCode = main(process.argv.slice(2));
