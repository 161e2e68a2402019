// `npm start`: install what is missing, build, then serve the API and the web app on
// http://localhost:3000 with the embedded PostgreSQL under ./data (see README.md).
import { ensureNodeModules, root, run } from './ensure.mjs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

ensureNodeModules();
run('npm run build');
process.chdir(root);
await import(pathToFileURL(path.join(root, 'apps/server/dist/main.js')).href);
