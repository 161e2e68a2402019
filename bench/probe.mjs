// Latency probes for the bench: closed-loop GETs on keep-alive connections, cut into windows.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

function percentile(sorted, p) {
  return sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]
    : NaN;
}

/**
 * Closed-loop GETs on `clients` keep-alive connections until stop() resolves; every latency
 * is kept with its start time, so a window (the ingest's) can be cut out afterwards.
 */
export function hammer(url, headers, clients) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const samples = [];
  let errors = 0;
  let running = true;
  const once = () =>
    new Promise((resolve) => {
      const start = performance.now();
      const req = http.get(url, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) samples.push([start, performance.now() - start]);
          else errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
    });
  const loops = Array.from({ length: clients }, async () => {
    while (running) await once();
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
      return { samples, errors };
    },
  };
}

export function window(samples, from, to) {
  const inside = samples.filter(([s]) => s >= from && s <= to).map(([, d]) => d);
  inside.sort((a, b) => a - b);
  const seconds = (to - from) / 1000;
  return {
    n: inside.length,
    rps: inside.length / seconds,
    p50: percentile(inside, 50),
    p99: percentile(inside, 99),
    max: inside.at(-1) ?? NaN,
  };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
