// One autocannon run in a process of its own, so the load generator's heap and GC are not the
// bench's (which holds the Vite builds): reads its settings as JSON from argv[2], prints the
// result's figures as one JSON line. With `paths`, successive requests take the next path,
// whatever connection sends them, so requests in flight together ask for different rows.
//
// With `amount`, a fixed number of requests after an unmeasured warm-up, and the CPU that each
// process in `watch` spent during exactly those requests, read just before the first and just
// after the last (`tree`: the process and its direct children, i.e. PostgreSQL's backends).
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { cpuMicros, treeCpu, treeCpuSpent } from './cpu.mjs';

const { url, headers, overallRate, paths, connections, duration, warmup, amount, watch } =
  JSON.parse(process.argv[2]);

function requests() {
  let next = 0;
  return (
    paths && [
      {
        method: 'GET',
        setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }),
      },
    ]
  );
}

const base = { url, headers, connections, pipelining: 1, overallRate };

function snapshot() {
  return (watch ?? []).map((w) => (w.tree ? treeCpu(w.pid) : cpuMicros(w.pid)));
}

function spent(before, after) {
  const out = {};
  (watch ?? []).forEach((w, i) => {
    out[w.name] = w.tree ? treeCpuSpent(before[i], after[i]) : after[i] - before[i];
  });
  return out;
}

let result;
let cpu;
let seconds;
if (amount) {
  if (warmup > 0) await autocannon({ ...base, requests: requests(), duration: warmup });
  // autocannon ends a run only on its 1 s sampling tick, so the server would idle through the
  // rest of that second: the clock and the CPU stop at the last answer instead.
  let answers = 0;
  let after;
  let t1;
  const before = snapshot();
  const t0 = performance.now();
  const instance = autocannon({ ...base, requests: requests(), amount });
  instance.on('response', () => {
    if (++answers !== amount) return;
    after = snapshot();
    t1 = performance.now();
  });
  result = await instance;
  after ??= snapshot();
  seconds = ((t1 ?? performance.now()) - t0) / 1000;
  cpu = spent(before, after);
} else {
  result = await autocannon({
    ...base,
    requests: requests(),
    duration,
    warmup: { connections, duration: warmup },
  });
  seconds = result.duration;
}
const answered = result['2xx'] + result.non2xx;
process.stdout.write(
  JSON.stringify({
    // A fixed count has no whole 1 s samples to average: answers over the elapsed time.
    rps: amount ? answered / seconds : result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    answered,
    seconds,
    cpu,
  }) + '\n',
);
