// Loaded into the soak's server process (`node --expose-gc --import bench/heap-sampler.ts`):
// on SIGUSR2 it runs a full garbage collection and appends the heap that is still in use
// to the file named by BENCH_HEAP_SAMPLES, one JSON line per signal. The heap gauge of
// /metrics counts garbage not yet collected too; what survives a full collection is what
// the process holds on to, and that is what must stay flat.
import fs from 'node:fs';
import v8 from 'node:v8';

const file = process.env.BENCH_HEAP_SAMPLES;
const gc = (globalThis as { gc?: () => void }).gc;
if (file && gc) {
  process.on('SIGUSR2', () => {
    gc();
    const heap = v8.getHeapStatistics();
    const { rss, external, arrayBuffers } = process.memoryUsage();
    // Each space's committed size: the new space grows under allocation and is given back late.
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((space) => [space.space_name, space.space_size]));
    fs.appendFileSync(
      file,
      `${JSON.stringify({ heapUsed: heap.used_heap_size, heapTotal: heap.total_heap_size, external, arrayBuffers, rss, spaces })}\n`,
    );
  });
}
