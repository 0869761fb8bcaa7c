import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the heap grow past what the last full collection kept, in percent. V8 picks up
 * to 300 % when collections are cheap: a 100k-market sync keeps 25 to 50 MB live, yet its heap
 * grew to ~200 MB and its RSS to ~270 MB. At 50 % the same sync peaks at 160–175 MB for ~10 % more
 * CPU (bench/README.md), and the limit still follows the live set, unlike --max-old-space-size.
 */
const HEAP_GROWING_PERCENT = 50;

/**
 * Sets V8's heap growing factor for this process unless `node --heap-growing-percent=N` chose one.
 * V8 reads the flag at every full collection, so setting it once the process runs takes effect.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((arg) => arg.startsWith('--heap-growing-percent') || arg.startsWith('--heap_growing_percent'))) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
