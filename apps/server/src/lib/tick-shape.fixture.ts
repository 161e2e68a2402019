// Run by tick-shape.test.ts as `node --import tsx --expose-gc --allow-natives-syntax
// --retain-maps-for-n-gc=0 tick-shape.fixture.ts [pin]`. The last flag makes every full GC keep
// no unreferenced maps, as V8's memory reducer does on an idle server. Prints V8's view of
// process.nextTick, whose feedback shows whether its literal's sites went megamorphic.
import { pinTickObjectShape } from './tick-shape.js';

if (process.argv[2] === 'pin') pinTickObjectShape();

/** Calls nextTick `n` times in a chain, as a busy server does. */
const ticks = (n: number) =>
  new Promise<void>((resolve) => {
    let i = 0;
    const step = () => (++i < n ? process.nextTick(step) : resolve());
    step();
  });
const idle = () => new Promise((resolve) => setTimeout(resolve, 10));

await ticks(5000); // warm: feedback allocated, sites monomorphic
await idle(); // no entry alive
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
gc();
gc();
await idle();
await ticks(10); // entries made after the GC
const debugPrint = new Function('f', '%DebugPrint(f)') as (f: unknown) => void;
debugPrint(process.nextTick);
