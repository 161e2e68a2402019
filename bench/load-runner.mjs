// One autocannon run in a process of its own, so the load generator's heap and GC are not the
// bench's (which holds the Vite builds): reads its settings as JSON from argv[2], prints the
// result's figures as one JSON line. With `paths`, successive requests take the next path,
// whatever connection sends them, so requests in flight together ask for different rows.
import autocannon from 'autocannon';

const { url, headers, overallRate, paths, connections, duration, warmup } = JSON.parse(
  process.argv[2],
);
let next = 0;
const result = await autocannon({
  url,
  headers,
  requests: paths && [
    {
      method: 'GET',
      setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }),
    },
  ],
  connections,
  duration,
  pipelining: 1,
  overallRate,
  warmup: { connections, duration: warmup },
});
process.stdout.write(
  JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  }) + '\n',
);
