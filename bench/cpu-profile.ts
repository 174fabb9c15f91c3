// Where the server's time went: self time per function from a V8 .cpuprofile
// (`node --cpu-prof`), largest first. `node bench/cpu-profile.ts <file> [top]` prints it.
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function summariseCpuProfile(file: string, top = 25): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    const frame = byId.get(id)!.callFrame;
    const where = frame.url ? `${shorten(frame.url)}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    selfMicros.set(key, (selfMicros.get(key) ?? 0) + delta);
    const area = frame.url ? areaOf(frame.url) : frame.functionName;
    byFile.set(area, (byFile.get(area) ?? 0) + delta);
    total += delta;
  });
  const ranked = [...selfMicros].sort((a, b) => b[1] - a[1]).slice(0, top);
  const areas = [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 15);
  const line = ([name, micros]: [string, number]) => `  ${((micros / total) * 100).toFixed(1).padStart(5)}%  ${name}`;
  return [
    `${path.basename(file)}: ${(total / 1e6).toFixed(1)} s sampled`,
    'self time by function:',
    ...ranked.map(line),
    'self time by package / file:',
    ...areas.map(line),
    '',
  ].join('\n');
}

/** Where a request's CPU goes, by what the code is for; each sample is attributed to its own frame. */
const AREAS: ReadonlyArray<readonly [string, (frame: ProfileNode['callFrame']) => boolean]> = [
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  ['SQLite statements (node:sqlite)', (f) => f.url.includes('node-sqlite-dialect')],
  ['Kysely executor', (f) => f.url.includes('node_modules/kysely')],
  [
    'HTTP and Fastify',
    (f) =>
      /node_modules\/(fastify|find-my-way|@fastify|avvio|light-my-request|fast-querystring)\//.test(f.url) ||
      /^node:(_http|net|events|internal\/streams?|internal\/http)/.test(f.url) ||
      f.functionName === 'writeUtf8String' ||
      f.functionName === 'writev',
  ],
  [
    'JSON parsing, validation, serialisation',
    (f) =>
      /node_modules\/(secure-json-parse|fast-json-stringify|ajv|ajv-formats|fast-uri)\//.test(f.url) ||
      f.url.includes('/src/http/') ||
      /^(validate|anonymous)\d*$/.test(f.functionName),
  ],
  ['party core (matching, merge, changeset, answer)', (f) => /\/src\/(party|leads)\//.test(f.url)],
  [
    'authentication, hashing, ids',
    (f) => f.url.includes('/src/auth/') || f.url.includes('crypto') || f.url.includes('node_modules/uuid'),
  ],
  ['transactions (group commit, retries)', (f) => f.url.includes('/src/db/')],
  ['promise and tick queues', (f) => f.url.includes('task_queues') || f.functionName === 'runMicrotasks'],
  ['V8, logging, metrics and the rest', () => true],
];

/**
 * CPU per request by area in µs, from a profile of a server kept busy by the load: only the
 * samples of the load's measured window count (the load generator's monotonic clock is the
 * profile's), idle ones left out, spread over the requests answered in it. Counting from a
 * fixed offset instead took in the server's start-up, which lasts 6-9 s on a loaded machine.
 */
export function cpuPerRequestByArea(
  file: string,
  load: { readonly requests: number; readonly windowMicros?: { readonly start: number; readonly end: number } },
): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile & { startTime: number };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const sums = new Map<string, number>();
  const window = load.windowMicros;
  if (window === undefined) return 'CPU per request: the load reported no window\n';
  let at = profile.startTime;
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    const frame = byId.get(id)!.callFrame;
    if (at < window.start || at > window.end || frame.functionName === '(idle)') return;
    const [area] = AREAS.find(([, matches]) => matches(frame))!;
    sums.set(area, (sums.get(area) ?? 0) + delta);
    busy += delta;
  });
  const lines = [...sums]
    .sort((a, b) => b[1] - a[1])
    .map(([area, micros]) => `  ${(micros / load.requests).toFixed(0).padStart(5)} µs  ${area}`);
  return [
    `CPU per request over ${load.requests} requests: ${(busy / load.requests).toFixed(0)} µs of the main thread's samples (the profiler's own cost included, and on a busy machine the time it waited for a core: samples are wall-clock intervals)`,
    ...lines,
    '',
  ].join('\n');
}

function shorten(url: string): string {
  return url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*\/(src|bench)\//, '$1/');
}

/** node_modules/<package>, a source file of ours, or node's own (node:...) module. */
function areaOf(url: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1]!;
  return shorten(url);
}

if (import.meta.main) {
  process.stdout.write(summariseCpuProfile(process.argv[2]!, Number(process.argv[3] ?? 25)));
}
