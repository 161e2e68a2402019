// Bundle size and login CSS (docs/performance.md): the JavaScript a route needs, gzipped, from the
// Vite manifest of a production build, against a React hello world built by the same Vite with the
// same config in the same run.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { gzFile, outRoot, root } from './lib.mjs';

const webRoot = path.join(root, 'apps/web');
const webConfig = path.join(webRoot, 'vite.config.ts');

/** Where each route's lazy screens live (see apps/web/src/app/app.tsx and app-routes.tsx). */
export const ROUTES = {
  login: ['src/features/auth/login-page.tsx'],
  dashboard: ['src/app/app-routes.tsx', 'src/features/dashboard/dashboard-page.tsx'],
};

/** A production build of `appRoot` with the web app's vite.config.ts; returns the manifest. */
async function viteBuild(appRoot, outDir) {
  await build({
    root: appRoot,
    configFile: webConfig,
    mode: 'production',
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      manifest: true,
      // A shared, busy machine makes plugins look slow; that warning is noise here.
      rolldownOptions: { checks: { bundlerTimings: false } },
    },
  });
  return JSON.parse(readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8'));
}

function findKey(manifest, source) {
  const key = Object.keys(manifest).find((k) => k === source || k.endsWith(`/${source}`));
  if (!key) {
    throw new Error(
      `${source} is not in the Vite manifest (keys: ${Object.keys(manifest).join(', ')})`,
    );
  }
  return key;
}

function entryKey(manifest) {
  const keys = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  if (keys.length !== 1)
    throw new Error(`expected one entry in the manifest, found ${keys.join(', ')}`);
  return keys[0];
}

/**
 * What loading the entry plus the given lazy modules fetches: each chunk and its static imports,
 * transitively (what Vite's preload helper requests with a dynamic import), JS and CSS apart.
 */
function closure(manifest, keys, outDir) {
  const seen = new Set();
  const js = new Set();
  const css = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no ${key}`);
    if (chunk.file.endsWith('.js')) js.add(chunk.file);
    for (const f of chunk.css ?? []) css.add(f);
    for (const k of chunk.imports ?? []) visit(k);
  };
  keys.forEach(visit);
  const sizes = (files) =>
    [...files].map((file) => ({ file, gz: gzFile(path.join(outDir, file)) }));
  const sum = (list) => list.reduce((n, f) => n + f.gz, 0);
  const jsFiles = sizes(js);
  const cssFiles = sizes(css);
  return { js: jsFiles, jsGz: sum(jsFiles), css: cssFiles, cssGz: sum(cssFiles) };
}

/** Builds the hello world and the web app; returns the gzip figures per route. */
export async function measureBundles() {
  // The reference: the smallest React 19 app, resolving react from the root node_modules.
  const helloRoot = path.join(outRoot, 'hello');
  rmSync(helloRoot, { recursive: true, force: true });
  mkdirSync(helloRoot, { recursive: true });
  writeFileSync(
    path.join(helloRoot, 'index.html'),
    '<!doctype html>\n<html lang="en">\n  <head><meta charset="UTF-8" /><title>Hello</title></head>\n' +
      '  <body>\n    <div id="root"></div>\n    <script type="module" src="/main.jsx"></script>\n  </body>\n</html>\n',
  );
  writeFileSync(
    path.join(helloRoot, 'main.jsx'),
    "import { createRoot } from 'react-dom/client';\n\n" +
      "createRoot(document.getElementById('root')).render(<h1>Hello</h1>);\n",
  );
  const helloOut = path.join(helloRoot, 'dist');
  const helloManifest = await viteBuild(helloRoot, helloOut);
  const hello = closure(helloManifest, [entryKey(helloManifest)], helloOut);

  const webOut = path.join(outRoot, 'web');
  const manifest = await viteBuild(webRoot, webOut);
  const entry = entryKey(manifest);
  const routes = {};
  for (const [name, sources] of Object.entries(ROUTES)) {
    routes[name] = closure(manifest, [entry, ...sources.map((s) => findKey(manifest, s))], webOut);
  }
  const allJs = Object.values(manifest)
    .map((c) => c.file)
    .filter((f) => f.endsWith('.js'));
  const bootstrapCss = gzFile(path.join(root, 'node_modules/bootstrap/dist/css/bootstrap.min.css'));
  return { hello, routes, webOut, chunkCount: new Set(allJs).size, bootstrapCss };
}
