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
