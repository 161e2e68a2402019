// CPU time of other processes, read from /proc (Linux only, as are the machines the bench runs
// on): the server under test is a separate process, and its own process.cpuUsage() is out of
// reach. /proc/<pid>/stat sums every thread of the process (the event loop, libuv's pool, V8's
// GC helpers), as process.cpuUsage() does.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond;

/** USER_HZ, the unit of /proc's CPU times (100 on Linux, asked once). */
function clockTicks() {
  if (ticksPerSecond === undefined) {
    const out = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    ticksPerSecond = Number.isFinite(out) && out > 0 ? out : 100;
  }
  return ticksPerSecond;
}

/** User + system CPU of `pid` in microseconds; NaN once the process is gone. */
export function cpuMicros(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return NaN;
  }
  // The command name (field 2) may hold spaces: count fields from after its closing ')'.
  // Fields 14 and 15, utime and stime, are then the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks();
}

/** The direct children of `pid` (PostgreSQL's backends and helpers under its postmaster). */
function childrenOf(pid) {
  const pids = [];
  let tasks;
  try {
    tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  } catch {
    return pids;
  }
  for (const p of tasks.trim().split(/\s+/)) if (p) pids.push(Number(p));
  return pids;
}

/** CPU per process of `pid` and its direct children, to be compared with treeCpuSpent. */
export function treeCpu(pid) {
  const seen = new Map();
  for (const p of [pid, ...childrenOf(pid)]) {
    const us = cpuMicros(p);
    if (Number.isFinite(us)) seen.set(p, us);
  }
  return seen;
}

/**
 * Microseconds spent between two treeCpu snapshots: a process that started in between counts
 * in full; one that ended in between is lost (PostgreSQL's pooled backends live on).
 */
export function treeCpuSpent(before, after) {
  let spent = 0;
  for (const [p, us] of after) spent += us - (before.get(p) ?? 0);
  return spent;
}
