import { readFileSync } from 'node:fs';

/** utime + stime of a process, in clock ticks (100 per second on Linux); undefined once it is gone. */
export function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/**
 * Nanoseconds the process's main thread (where the event loop runs) has spent runnable but
 * waiting for a core, from /proc/PID/schedstat; undefined once it is gone or without schedstat.
 * A server below 100 % of its core either slept (nothing to do) or waited here, for other
 * processes on its core (on PostgreSQL the database's backends, woken by the service's own
 * statements, run there whenever the other core is busy) or for its own helper threads (V8's
 * collector), pinned to the same core.
 */
export function waitedForCoreNs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/);
    const waited = Number(fields[1]);
    return Number.isFinite(waited) ? waited : undefined;
  } catch {
    return undefined;
  }
}

/** A process's read system calls and bytes read so far, files and sockets alike (/proc/PID/io). */
export interface ReadCounters {
  calls: number;
  bytes: number;
  /**
   * Bytes the kernel fetched from the disk for it (`read_bytes`): reads the page cache could not
   * answer; undefined where the kernel does not count them. better-sqlite3 reads on the event
   * loop's thread, so each such fetch stops every request: the 1M service's first W3U window
   * after two idle minutes fetched 55 MB/s, its pages paged out meanwhile by the VM's DAMON
   * reclaim (bench/README.md, "A machine that pages out cold files").
   */
  fromDisk?: number;
}

/**
 * The process's `syscr` and `rchar` from /proc/PID/io; undefined once it is gone or where the
 * kernel keeps no such accounting. A page SQLite finds neither in its own cache nor in the WAL is
 * one 4 KB `pread` of the database file, so at 1M records, where the B-trees' leaves no longer
 * fit its 8 MB cache, each answer's misses show here beside the socket reads every answer makes.
 */
export function readCounters(pid: number): ReadCounters | undefined {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    const calls = Number(/^syscr:\s+(\d+)/m.exec(io)?.[1]);
    const bytes = Number(/^rchar:\s+(\d+)/m.exec(io)?.[1]);
    const fromDisk = Number(/^read_bytes:\s+(\d+)/m.exec(io)?.[1]);
    return Number.isFinite(calls) && Number.isFinite(bytes)
      ? { calls, bytes, fromDisk: Number.isFinite(fromDisk) ? fromDisk : undefined }
      : undefined;
  } catch {
    return undefined;
  }
}

export interface MachineTicks {
  busy: number;
  steal: number;
  /** Idle with a disk read or write outstanding. */
  ioWait: number;
  total: number;
}

/**
 * Busy and total clock ticks of the whole machine, every core and every process (the database
 * too), from the first line of /proc/stat; idle and I/O wait count as not busy. Steal (time the
 * hypervisor gave the VM's cores to others: 33 % in `top` during one of the nineteenth
 * session's runs) is counted apart: it is no process's work, and a window with much of it
 * measured a slower machine.
 */
export function machineTicks(): MachineTicks | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already counted in user).
    const total = ticks.slice(0, 8).reduce((sum, n) => sum + n, 0);
    return { busy: total - ticks[3] - ticks[4] - ticks[7], steal: ticks[7], ioWait: ticks[4], total };
  } catch {
    return undefined;
  }
}

/**
 * % of all the machine's cores between two samples that `pick` counts (by default busy: every
 * process, the database's too); undefined without two samples a tick apart.
 */
export function machineShare(
  first: MachineTicks | undefined,
  last: MachineTicks | undefined,
  pick: (ticks: MachineTicks) => number = (ticks) => ticks.busy,
): number | undefined {
  if (!first || !last || last.total <= first.total) return undefined;
  return ((pick(last) - pick(first)) / (last.total - first.total)) * 100;
}
