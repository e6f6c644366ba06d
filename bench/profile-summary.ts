/**
 * Reads a V8 .cpuprofile (from `npm run bench -- --cpu-prof`) and prints where the service's CPU
 * went: self time per package / source directory, then per function. Chrome DevTools shows the
 * same with a call tree; this is for a terminal and for pasting into an issue.
 *
 *   npx ts-node --transpile-only bench/profile-summary.ts bench/tmp/prof/CPU.*.cpuprofile [top] [from-s to-s]
 *
 * `from-s to-s` keep only the samples between those seconds of the profile (a workload's window
 * rather than the service's start and preload).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg, fromArg, toArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [top] [from-s to-s]');
const top = Number(topArg ?? 25);
const fromMicros = fromArg === undefined ? -Infinity : Number(fromArg) * 1e6;
const toMicros = toArg === undefined ? Infinity : Number(toArg) * 1e6;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));

/** Where a frame's code lives: an npm package, a node: module, or the service's own directory. */
function owner({ url, functionName }: ProfileNode['callFrame']): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const own = /\/((?:apps|libs)\/[^/]+\/src\/[^/]+)/.exec(url);
  if (own) return own[1];
  return url || functionName || '(native)';
}

const byOwner = new Map<string, number>();
const byFunction = new Map<string, number>();
let total = 0;
let at = 0;
profile.samples.forEach((id, index) => {
  const micros = profile.timeDeltas[index] ?? 0;
  at += micros;
  if (at < fromMicros || at > toMicros) return;
  const frame = nodes.get(id)!.callFrame;
  total += micros;
  byOwner.set(owner(frame), (byOwner.get(owner(frame)) ?? 0) + micros);
  const name = `${frame.functionName || '(anonymous)'}  ${frame.url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, '')}:${frame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
});

function print(title: string, map: Map<string, number>): void {
  process.stdout.write(`\n${title}\n`);
  for (const [name, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((100 * micros) / total).toFixed(1).padStart(6)}%  ${name}\n`);
  }
}
process.stdout.write(`${file}: ${(total / 1e6).toFixed(1)} s sampled (idle included)\n`);
print('self time by package / directory', byOwner);
print('self time by function', byFunction);
