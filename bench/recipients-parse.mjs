// Recipient parsing (docs/performance.md): the web app's
// recipients parser (apps/web/src/features/campaigns/recipients) in headless Chromium, on 1M
// numbers pasted, as a CSV and as a 1M-row XLSX, each beside references run in the same page:
// a bare byte-scan + sort over the same bytes, PapaParse, and a native inflate of the XLSX. The
// longest main-thread task during each parse comes from a PerformanceObserver (longtask).
// Runs alone (`node bench/recipients-parse.mjs`) or from scripts/bench.mjs (--only=recipients).
// Settings: BENCH_RECIPIENTS (1,000,000), BENCH_RECIPIENTS_RUNS (3, the median is shown).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { CHROMIUM, outRoot, root } from './lib.mjs';

const N = Number(process.env.BENCH_RECIPIENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RECIPIENTS_RUNS ?? 3);
const dir = path.join(root, 'apps/web/src/features/campaigns/recipients');
const out = path.join(outRoot, 'recipients');
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// The reference worker: a bare scan (digits into a Float64Array, then sort; no rules),
// PapaParse over the decoded text alone ('papa'), a PapaParse-based parser doing our job
// ('papaRules': PapaParse, then every cell split, normalised by the contract's rule and
// deduplicated in a Set, as a parser built on it would), and inflate-only of every XLSX entry.
const REF_WORKER = `
import Papa from 'papaparse';
import { normalizeRecipient, RECIPIENT_SEPARATORS } from '@herald/contract';
import { inflateEntry, readCentralDirectory } from './zip';
function papaRules(text) {
  const seen = new Set();
  let invalid = 0, duplicates = 0;
  for (const row of Papa.parse(text, { skipEmptyLines: true }).data) {
    for (const cell of row) {
      for (const token of cell.split(RECIPIENT_SEPARATORS)) {
        if (!token) continue;
        const n = normalizeRecipient(token);
        if (n === null) invalid++;
        else if (seen.has(n)) duplicates++;
        else seen.add(n);
      }
    }
  }
  return seen.size + invalid + duplicates;
}
function bare(bytes) {
  const keys = new Float64Array(bytes.length >>> 3);
  let n = 0, v = 0, d = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b >= 48 && b <= 57) { v = v * 10 + (b - 48); d++; }
    else if (d > 0) { keys[n++] = v; v = 0; d = 0; }
  }
  if (d > 0) keys[n++] = v;
  return keys.subarray(0, n).sort().length;
}
self.onmessage = async ({ data: { op, buffer } }) => {
  const bytes = new Uint8Array(buffer);
  const t0 = performance.now();
  let size = 0;
  if (op === 'bare') size = bare(bytes);
  else if (op === 'papa') size = Papa.parse(new TextDecoder().decode(bytes)).data.length;
  else if (op === 'papaRules') size = papaRules(new TextDecoder().decode(bytes));
  else for (const e of readCentralDirectory(bytes)) size += (await inflateEntry(bytes, e)).length;
  self.postMessage({ ms: performance.now() - t0, size });
};`;

const PAGE = `<!doctype html><script type="module">
const ours = new Worker('/parser.worker.js', { type: 'module' });
const ref = new Worker('/ref.worker.js', { type: 'module' });
let longest = 0;
new PerformanceObserver((l) => { for (const e of l.getEntries()) longest = Math.max(longest, e.duration); })
  .observe({ type: 'longtask', buffered: false });
const call = (w, msg) => new Promise((resolve) => { w.onmessage = (e) => resolve(e.data); w.postMessage(msg, msg.buffer ? [msg.buffer] : []); });
const settle = () => new Promise((r) => setTimeout(r, 100));
const SLICE = 2 ** 22; // as encode-text.ts SLICE_CHARS
async function encodeInSlices(text) {
  const enc = new TextEncoder();
  let out = new Uint8Array(text.length + 16), written = 0;
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + SLICE, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    const slice = text.slice(start, end);
    if (out.length - written < slice.length * 3) {
      const grown = new Uint8Array(Math.max(out.length * 2, written + slice.length * 3));
      grown.set(out.subarray(0, written)); out = grown;
    }
    written += enc.encodeInto(slice, out.subarray(written)).written;
    start = end;
    if (start < text.length) await new Promise((r) => setTimeout(r, 0));
  }
  return out.buffer.slice(0, written);
}
window.bytes = async (url) => (await fetch(url)).arrayBuffer();
window.ours = async (kind, url, paste) => {
  const data = paste ? new TextDecoder().decode(await bytes(url)) : await bytes(url);
  await settle(); longest = 0;
  const t0 = performance.now();
  // As parseRecipients does: pasted text is encoded in slices on the page (encode-text.ts),
  // then its bytes, like a file's, are transferred.
  const buffer = paste ? await encodeInSlices(data) : data;
  const r = await call(ours, { id: 1, kind, buffer });
  const ms = performance.now() - t0;
  await settle();
  return { ms, longest, kept: r.kept, invalid: r.invalid, duplicates: r.duplicates, error: r.error };
};
window.ref = async (op, url) => {
  const buffer = await bytes(url);
  await settle(); longest = 0;
  const r = await call(ref, { op, buffer });
  await settle();
  return { ms: r.ms, longest, size: r.size };
};
</script>`;

async function bundle() {
  mkdirSync(out, { recursive: true });
  const common = {
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'error',
  };
  await build({
    ...common,
    entryPoints: { 'parser.worker': path.join(dir, 'parser.worker.ts') },
    splitting: true,
    outdir: out,
    minify: true,
  });
  await build({
    ...common,
    stdin: { contents: REF_WORKER, resolveDir: dir, loader: 'ts' },
    outfile: path.join(out, 'ref.worker.js'),
    minify: true,
  });
  const fixture = path.join(out, 'zip-fixture.mjs');
  await build({
    ...common,
    platform: 'node',
    entryPoints: [path.join(root, 'apps/web/test/zip-fixture.ts')],
    outfile: fixture,
  });
  return import(pathToFileURL(fixture).href);
}

/** 1M numbers: 10 to 12 digits, written with +, spaces and dashes, 10% repeats, a few invalid. */
async function makeData(writeXlsx) {
  const nums = [];
  for (let i = 0; i < N; i++)
    nums.push(String(91_000_000_000 + ((i * 7_919) % Math.floor(N * 0.9))));
  const text = nums
    .map((n, i) => (i % 5 === 0 ? `+${n.slice(0, 2)}-${n.slice(2, 7)}-${n.slice(7)}` : n))
    .join('\n');
  const csv = `phone\r\n${nums.join('\r\n')}\r\n`;
  const xlsx = await writeXlsx([[['phone'], ...nums.map((n) => [Number(n)])]]);
  return {
    '/paste.txt': Buffer.from(text),
    '/list.csv': Buffer.from(csv),
    '/list.xlsx': Buffer.from(xlsx),
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function measureRecipients() {
  const { writeXlsx } = await bundle();
  const files = await makeData(writeXlsx);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const page = await browser.newPage();
    await page.route('http://bench.local/**', async (route) => {
      const p = new URL(route.request().url()).pathname;
      if (p === '/') return route.fulfill({ contentType: 'text/html', body: PAGE });
      if (files[p])
        return route.fulfill({ contentType: 'application/octet-stream', body: files[p] });
      return route.fulfill({ contentType: 'text/javascript', path: path.join(out, p) });
    });
    await page.goto('http://bench.local/');
    await page.waitForFunction(() => typeof globalThis.ours === 'function');
    const runs = async (fn, ...args) => {
      const all = [];
      for (let i = 0; i < RUNS; i++) all.push(await page.evaluate(fn, args));
      return {
        ...all[all.length - 1],
        ms: median(all.map((r) => r.ms)),
        longest: Math.max(...all.map((r) => r.longest)),
      };
    };
    const ours = ([kind, url, paste]) => globalThis.ours(kind, url, paste);
    const ref = ([op, url]) => globalThis.ref(op, url);
    const sizes = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, v.length]));
    return {
      n: N,
      sizes,
      paste: await runs(ours, 'text', '/paste.txt', true),
      pasteBare: await runs(ref, 'bare', '/paste.txt'),
      pastePapa: await runs(ref, 'papa', '/paste.txt'),
      pastePapaRules: await runs(ref, 'papaRules', '/paste.txt'),
      csv: await runs(ours, 'csv', '/list.csv', false),
      csvBare: await runs(ref, 'bare', '/list.csv'),
      csvPapa: await runs(ref, 'papa', '/list.csv'),
      csvPapaRules: await runs(ref, 'papaRules', '/list.csv'),
      xlsx: await runs(ours, 'xlsx', '/list.xlsx', false),
      xlsxInflate: await runs(ref, 'inflate', '/list.xlsx'),
    };
  } finally {
    await browser.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await measureRecipients();
  console.log(JSON.stringify(r, null, 2));
  writeFileSync(path.join(out, 'results.json'), JSON.stringify(r, null, 2));
}
