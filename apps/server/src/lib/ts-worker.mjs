// A worker thread's first module when the server runs from its TypeScript sources
// (worker-module.ts): registers tsx's loader in this thread, then loads the thread module named
// by the worker's last argument. The bundle starts its workers on their built files instead.
import { register } from 'tsx/esm/api';

register();
await import(process.argv[process.argv.length - 1]);
