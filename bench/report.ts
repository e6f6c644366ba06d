/** The results of a run, and their markdown (bench/results/latest.md). Formatting only. */

import type { WindowCpu } from './protocol';
import { DEFAULT_SOURCE_GROUP } from './records';
import { medianOfRatios, pairRatios } from './statistics';

export interface Series {
  /** Median over the repetitions of correct answers per second (records/s for W4 and W5). */
  perSecond: number;
  /** Each repetition's figure, to show the spread. */
  reps: number[];
  /** Median over the repetitions, ms (W5: p50 = time to first byte, p99 = whole read). */
  p50: number;
  p99: number;
  /** VmHWM over the workload (warm-up and repetitions), MB. */
  peakRssMb: number;
  wrong: number;
  errors: number;
  firstWrong?: string;
  /** Per repetition, CPU use over its window. */
  cpu?: WindowCpu[];
}

export interface BenchResults {
  date: string;
  command: string;
  machine: {
    nproc: number;
    cpu: string;
    memoryGb: number;
    node: string;
    taskset: boolean;
    loadBefore: number;
    loadAfter: number;
    /** The kernel's boot id: runs that share it ran on one machine, with no reboot between them. */
    bootId?: string;
  };
  database: string;
  databaseKind: 'sqlite' | 'postgres';
  records: number;
  settings: {
    duration: number;
    warmup: number;
    reps: number;
    connections: number;
    batch: number;
    w5Reps: number;
    w3OneQuery?: boolean;
    /** Matches per W3/W3U answer (`--hits`); absent from the files of runs before it existed, which matched 10. */
    hits?: number;
    /** Each group's records preloaded far apart (`--scattered`); absent from the files of runs before it existed, which loaded them together. */
    scattered?: boolean;
  };
  preloads: { phase: string; target: string; records: number; seconds: number; perSecond: number; peakRssMb: number }[];
  workloads: {
    workload: string;
    service: Series;
    raw: Series;
    ratio: number;
    /** The scaling run's 10k service, measured in each repetition right after `service`. */
    serviceAtBaseline?: Series;
  }[];
  w5?: { records: number; service: Series; raw: Series; ratio: number; servicePeakWithPreloadMb: number };
  /** Records the family held at least before W4 (topped up to `--w4-family`). */
  w4Family?: number;
  serviceLog: { phase: string; lines: number; tail: string; file: string }[];
  seconds: number;
}

const TITLES: Record<string, string> = {
  W1: 'W1 get by id',
  W2: 'W2 create one',
  W3: 'W3 filter, declared path `source`',
  W3U: 'W3U filter, undeclared path `flow`',
  W4: 'W4 batch ingest (records/s), family ≥ 100k',
  W4S: 'W4S as W4, each `source` scattered (records/s)',
  W4R: 'W4R as W4, each id scattered (records/s)',
};
/** Matches per W3/W3U answer in a run (the files of runs before `--hits` matched the default). */
const hitsOf = (r: BenchResults): number => r.settings.hits ?? DEFAULT_SOURCE_GROUP;

/** Whether a run's W3/W3U matches were scattered over its family (`--scattered`). */
const scatteredOf = (r: BenchResults): boolean => r.settings.scattered ?? false;

/** How a run laid out each W3/W3U answer's matches: "10 hits", "40 hits, scattered". */
const matchesOf = (r: BenchResults): string => `${hitsOf(r)} hits${scatteredOf(r) ? ', scattered' : ''}`;

/** A workload's row title; the filters' name how many records each answer matches, and whether they lie apart. */
function titleOf(workload: string, r: BenchResults): string {
  const title = TITLES[workload] ?? workload;
  return workload === 'W3' || workload === 'W3U' ? `${title} (${matchesOf(r)})` : title;
}

/** Issue 10's goals, as ratio service/raw: on SQLite, and on PostgreSQL sharing the cores with the service. */
const TARGETS: Record<BenchResults['databaseKind'], Record<string, number>> = {
  sqlite: { W1: 0.4, W2: 0.35, W3: 1.0, W3U: 1.0, W4: 0.5, W4S: 0.5, W4R: 0.5 },
  postgres: { W1: 0.25, W2: 0.15, W3: 1.0, W3U: 1.0, W4: 0.4, W4S: 0.4, W4R: 0.4 },
};
const W5_RSS_TARGET_MB = 300;
const SCALING_TARGET = 0.8;

const int = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : '—');
const ms = (n: number): string => (Number.isFinite(n) ? (n >= 100 ? n.toFixed(0) : n.toFixed(1)) : '—');
const mb = (n: number): string => (Number.isFinite(n) ? n.toFixed(0) : '—');
/** The median over the repetitions of one CPU figure. */
const cpu = (list: WindowCpu[] | undefined, figure: keyof WindowCpu): string => {
  const known = (list ?? [])
    .map((window) => window[figure] ?? NaN)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  return known.length ? `${known[Math.floor(known.length / 2)].toFixed(0)} %` : '—';
};
/** Rounded down, so that a ratio just under its goal never reads as the goal (0.3497 is 0.34, not 0.35). */
const ratio = (n: number): string => (Number.isFinite(n) ? (Math.floor(n * 100 + 1e-9) / 100).toFixed(2) : '—');

export function toMarkdown(r: BenchResults, baseline?: BenchResults): string {
  const verdict = (met: boolean): string => (met ? ' ✅' : ' ❌');
  const out: string[] = [];
  out.push(`# Benchmark: service vs raw node:http bound`, '');
  out.push(`- date: ${r.date}`);
  out.push(
    `- machine: ${r.machine.nproc} CPUs (${r.machine.cpu}), ${r.machine.memoryGb.toFixed(0)} GB, Node ${r.machine.node}; ` +
      (r.machine.taskset ? 'servers pinned to core 0, load generator to core 1 (taskset)' : 'no taskset: processes not pinned'),
  );
  out.push(
    `- load average (1 min) before/after: ${r.machine.loadBefore.toFixed(2)} / ${r.machine.loadAfter.toFixed(2)} (other work on the machine makes figures noisy)`,
  );
  out.push(`- database: ${r.database}; auth on (service: HS256 JWT verified per request; raw: token string compare)`);
  out.push(
    `- records preloaded: ${int(r.records)} (~300 bytes each; \`source\` and \`flow\` each shared by ${hitsOf(r)}${scatteredOf(r) ? ', scattered over the family in arrival order (`--scattered`)' : ', preloaded side by side'})`,
  );
  out.push(
    `- load: wrk (1 thread, requests built in Lua, bench/wrk.lua), ${r.settings.connections} connections, ${r.settings.warmup} s warm-up then ${r.settings.reps} × ${r.settings.duration} s per server, alternated, medians; service/raw (and now / 10k) is the median of the repetitions' own ratios; W4 batches of ${int(r.settings.batch)}` +
      (r.w4Family ? `, into a family topped up to ${int(r.w4Family)} records (plus what W2 added)` : '') +
      (r.settings.w3OneQuery
        ? '; W3/W3U: every request the same query (`--w3-one-query`)'
        : "; W3/W3U: each request one group's value, picked at random"),
  );
  out.push(`- command: \`${r.command}\` (${r.seconds.toFixed(0)} s)`, '');

  out.push('Only correct answers count (expected status and exact body length). Latency is per request (W4: per batch of 1,000).', '');
  out.push(
    "CPU is % of one core over each window (median of the repetitions), from /proc/PID/stat: the server's core should be near 100 %, the generator's (wrk) below it. " +
      'The third figure is % of all the cores busy (/proc/stat), whatever ran on them: where the server is below 100 %, it says whether the machine was full (the database using the rest) or waiting. ' +
      'The per-repetition lines add three: % of one core the other server used during the window, on the same core (it should be near 0), % of all the cores the hypervisor gave to other machines (steal, not counted as busy), ' +
      "and % of the window the server's main thread was ready to run but waited for its core (/proc/PID/schedstat): a server below 100 % either waited there, its core taken by other processes (on PostgreSQL the database's backends) or by its own helper threads (V8's collector), or slept with nothing to do.",
    '',
  );
  out.push(
    '| workload | service /s | raw /s | service/raw | target | CPU service / wrk / all cores | CPU raw / wrk / all cores | service p50 / p99 ms | raw p50 / p99 ms | service peak RSS MB | raw peak RSS MB | service wrong / errors |',
  );
  out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const workloads = [...r.workloads].sort((a, b) => a.workload.localeCompare(b.workload));
  for (const w of workloads) {
    const target = TARGETS[r.databaseKind][w.workload];
    out.push(
      `| ${titleOf(w.workload, r)} | ${int(w.service.perSecond)} | ${int(w.raw.perSecond)} | ${ratio(w.ratio)}${verdict(w.ratio >= target)} | ≥ ${target.toFixed(2)} | ` +
        `${cpu(w.service.cpu, 'server')} / ${cpu(w.service.cpu, 'generator')} / ${cpu(w.service.cpu, 'machine')} | ` +
        `${cpu(w.raw.cpu, 'server')} / ${cpu(w.raw.cpu, 'generator')} / ${cpu(w.raw.cpu, 'machine')} | ` +
        `${ms(w.service.p50)} / ${ms(w.service.p99)} | ${ms(w.raw.p50)} / ${ms(w.raw.p99)} | ${mb(w.service.peakRssMb)} | ${mb(w.raw.peakRssMb)} | ${w.service.wrong} / ${w.service.errors} |`,
    );
  }
  if (r.w5) {
    const w = r.w5;
    out.push(
      `| W5 read all ${int(w.records)} (records/s) | ${int(w.service.perSecond)} | ${int(w.raw.perSecond)} | ${ratio(w.ratio)} | RSS < ${W5_RSS_TARGET_MB} MB | — | — | ` +
        `first byte ${ms(w.service.p50)} / all ${ms(w.service.p99)} | first byte ${ms(w.raw.p50)} / all ${ms(w.raw.p99)} | ` +
        `**${mb(w.service.peakRssMb)}**${verdict(w.service.peakRssMb < W5_RSS_TARGET_MB)} | ${mb(w.raw.peakRssMb)} | ${w.service.wrong} / ${w.service.errors} |`,
    );
  } else {
    out.push('| W5 read all | skipped (`--skip-w5`) | | | | | | | | | | |');
  }
  out.push('');

  // A repetition is a service window and the raw window right after it: the ratio in the table is
  // the median of these, each comparing two windows seconds apart (medianOfRatios).
  out.push("Per repetition (service | raw; then each repetition's own ratio, whose median is the table's service/raw):", '');
  for (const w of workloads) {
    const cpus = (x: Series): string =>
      (x.cpu ?? [])
        .map((c) => [c.server, c.generator, c.machine, c.idleServer, c.stolen, c.waitedForCore].map((n) => (n ?? NaN).toFixed(0)).join('/'))
        .join(', ');
    // Floored as the table's ratio is, so that the median shown is one of these.
    const paired = pairRatios(w.service.reps, w.raw.reps).map(ratio).join(', ');
    out.push(
      `- ${w.workload}: ${w.service.reps.map(int).join(', ')} | ${w.raw.reps.map(int).join(', ')} (CPU % server/wrk/all cores/idle server/stolen/server waited: ${cpus(w.service)} | ${cpus(w.raw)}); ratios ${paired}`,
    );
    if (w.service.cpu && w.raw.cpu) out.push(`  ${costAndBusy(w.service, w.raw)}`);
  }
  if (r.w5) {
    out.push(
      `- W5: ${r.w5.service.reps.map(int).join(', ')} | ${r.w5.raw.reps.map(int).join(', ')}; service peak RSS over the reads ${mb(r.w5.service.peakRssMb)} MB, ` +
        `including its 1M preload ${mb(r.w5.servicePeakWithPreloadMb)} MB`,
    );
  }
  out.push('');

  out.push('Preload (POST batches of 1,000, 2 in flight):', '');
  for (const p of r.preloads)
    out.push(
      `- ${p.phase}, ${p.target}: ${int(p.records)} records in ${p.seconds.toFixed(1)} s = ${int(p.perSecond)} records/s, peak RSS ${mb(p.peakRssMb)} MB`,
    );
  out.push('');

  if (r.records !== 10_000) {
    if (r.workloads.some((w) => w.serviceAtBaseline)) {
      out.push(
        `Scaling: ${int(r.records)} records against a service of 10,000 records run beside it, on a database of its own, its window right after this service's in every repetition (\`--scaling-from-file\` compares with the last 10k run's file instead):`,
        '',
      );
      out.push(
        '| workload | service /s at 10k | service /s now | now / 10k (median by repetition) | target | by repetition | raw /s now |',
      );
      out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
      const reads: string[] = [];
      for (const name of ['W1', 'W3', 'W3U', 'W4']) {
        const now = r.workloads.find((w) => w.workload === name);
        const then = now?.serviceAtBaseline;
        if (!now || !then) continue;
        const scale = medianOfRatios(now.service.reps, then.reps);
        const paired = pairRatios(now.service.reps, then.reps).map(ratio).join(', ');
        out.push(
          `| ${titleOf(name, r)} | ${int(then.perSecond)} | ${int(now.service.perSecond)} | ${ratio(scale)}${verdict(scale >= SCALING_TARGET)} | ≥ ${SCALING_TARGET} | ${paired} | ${int(now.raw.perSecond)} |`,
        );
        reads.push(`- ${name}: ${readsPerAnswer(then)} | ${readsPerAnswer(now.service)}`);
      }
      out.push(
        '',
        'Reads per answer (W4: per record) of the service at 10k | now, by repetition (/proc/PID/io, files and sockets alike; a page SQLite misses in its cache adds a call and 4 KB):',
        '',
        ...reads,
        '',
      );
    } else if (baseline) {
      // Two machines of one kind differ by up to 3× here (README "Performance"): a 1M figure over
      // another machine's 10k figure measures the machines, not the scaling; and filters matching
      // more records per answer, or the same records farther apart, cost more at any size.
      const comparable = sameMachine(r.machine, baseline.machine) && matchesOf(r) === matchesOf(baseline);
      const mark = (met: boolean): string => (comparable ? verdict(met) : '');
      out.push(`Scaling: ${int(r.records)} records vs the 10k run of ${baseline.date} (same database kind):`, '');
      if (!comparable)
        out.push(
          `**Not comparable:** that 10k run was taken on another machine (${baseline.machine.cpu}), before this one last booted, or with another \`--hits\` or \`--scattered\` (${matchesOf(baseline)} against ${matchesOf(r)}), so no ratio below is a verdict. Run \`npm run bench -- --skip-w5\` on this machine first, with the same \`--hits\` and \`--scattered\`, then this run again.`,
          '',
        );
      out.push('| workload | service /s at 10k | service /s now | now / 10k | target | raw /s at 10k | raw /s now |');
      out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
      for (const name of ['W1', 'W3', 'W3U', 'W4']) {
        const now = r.workloads.find((w) => w.workload === name);
        const then = baseline.workloads.find((w) => w.workload === name);
        if (!now || !then) continue;
        const scale = now.service.perSecond / then.service.perSecond;
        out.push(
          `| ${titleOf(name, r)} | ${int(then.service.perSecond)} | ${int(now.service.perSecond)} | ${ratio(scale)}${mark(scale >= SCALING_TARGET)} | ≥ ${SCALING_TARGET} | ${int(then.raw.perSecond)} | ${int(now.raw.perSecond)} |`,
        );
      }
      out.push('');
    } else {
      out.push('Scaling: no 10k result (bench/results/latest-10k*.json) to compare with; run `npm run bench` first.', '');
    }
  }

  const problems: string[] = [];
  for (const w of r.workloads) {
    for (const [name, s] of [
      ['service', w.service],
      ['raw', w.raw],
      ['service at 10k', w.serviceAtBaseline],
    ] as const) {
      if (!s) continue;
      if (s.firstWrong) problems.push(`- ${w.workload} ${name}: ${s.wrong} wrong answers; first: \`${s.firstWrong.replace(/`/g, "'")}\``);
      if (s.errors) problems.push(`- ${w.workload} ${name}: ${s.errors} connection errors/timeouts`);
    }
  }
  if (r.w5?.service.firstWrong) problems.push(`- W5 service: \`${r.w5.service.firstWrong.replace(/`/g, "'")}\``);
  if (r.w5?.raw.firstWrong) problems.push(`- W5 raw: \`${r.w5.raw.firstWrong.replace(/`/g, "'")}\``);
  for (const l of r.serviceLog) {
    if (l.lines > 0)
      problems.push(
        `- service log (${l.phase}) has ${l.lines} lines at LOG_LEVEL=warn; last ones:\n\n\`\`\`\n${l.tail.trim().split('\n').slice(-10).join('\n')}\n\`\`\``,
      );
  }
  out.push(
    problems.length
      ? ['Problems seen:', '', ...problems].join('\n')
      : 'No wrong answers, no connection errors, nothing in the service log.',
  );
  out.push('');
  return out.join('\n');
}

/** Whether two runs ran on one machine since its last boot (runs from before boot ids were kept never match). */
function sameMachine(a: BenchResults['machine'], b: BenchResults['machine']): boolean {
  return a.bootId !== undefined && a.bootId === b.bootId;
}

/**
 * Each repetition's ratio as the product of two: how much of its core each server kept busy
 * (server CPU % over raw CPU %) and what an answer cost each in CPU (raw µs over service µs).
 * A miss whose busy share is short while the cost is even is time the service waited (for
 * PostgreSQL, say), not work it did; one whose cost ratio is short is work.
 */
function costAndBusy(service: Series, raw: Series): string {
  const busy = (x: Series, k: number): number => x.cpu![k]?.server ?? NaN;
  const micros = (x: Series, k: number): number => (busy(x, k) * 10_000) / x.reps[k];
  const each = (f: (k: number) => string): string => service.reps.map((_rep, k) => f(k)).join(', ');
  const digits = (n: number): string => n.toFixed(n < 10 ? 1 : 0);
  return (
    `µs of the server's CPU per answer (W4: per record): ${each((k) => digits(micros(service, k)))} | ${each((k) => digits(micros(raw, k)))}; ` +
    `ratio = busy share × cost ratio: ${each((k) => `${(busy(service, k) / busy(raw, k)).toFixed(2)} × ${(micros(raw, k) / micros(service, k)).toFixed(2)}`)}; ` +
    `the service's reads per answer: ${readsPerAnswer(service)}`
  );
}

/** Each repetition's read system calls and KB read per answer (W4: per record) of a server (see `readCounters`). */
function readsPerAnswer(x: Series): string {
  return x.reps
    .map((perSecond, k) => {
      const { readCalls, readKb } = x.cpu?.[k] ?? {};
      return readCalls === undefined || readKb === undefined
        ? '–'
        : `${(readCalls / perSecond).toFixed(1)} calls / ${(readKb / perSecond).toFixed(1)} KB`;
    })
    .join(', ');
}
