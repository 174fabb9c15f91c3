// Which tables and indexes a SQLite server's commits write, page by page, under load:
// `node bench/wal-pages.ts [scenario...]` (a, b, c, keyed, batch; BENCH_BASELINE=<revision>
// measures that revision's server too, in turn). A group commit writes every page its pushes
// changed to the WAL, one frame each, so a commit's cost follows the pages it dirtied, and a
// row whose key lands on a random page of a large index costs a page of its own where rows
// appended in key order share one. Each figure is a fresh database and server under the push
// scenario's load (50 connections, BENCH_DURATION seconds); a read transaction of ours keeps
// the WAL from starting over (bench/sqlite-wal.ts), then its frames are read: the page number
// of each and where each commit ends (https://sqlite.org/fileformat2.html, "WAL File Format"),
// each page named by the b-tree it belongs to at the end (the dbstat table).
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { prepareBaseline } from './baseline.ts';
import { withBenchDatabase, withServer } from './bench-server.ts';
import { SQLITE_FILE } from './database.ts';
import { log } from './measure.ts';
import { readOptions } from './options.ts';
import { runLoad } from './processes.ts';
import { loadSpecFor, requestSpec } from './push-run.ts';
import { PUSH_SCENARIOS, leadsPerRequest, type PushScenario } from './push-scenarios.ts';
import { CURRENT_CODE, type ServerCode } from './server-code.ts';
import { watchWal } from './sqlite-wal.ts';

const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

interface WalPages {
  readonly code: string;
  readonly scenario: PushScenario;
  readonly leads: number;
  readonly commits: number;
  /** Frames per b-tree name over the run. */
  readonly pagesByTree: Map<string, number>;
  readonly pages: number;
}

/** Page numbers of the frames from `fromFrame` on, and how many commits they end. */
function readFrames(walFile: string, fromFrame: number): { pages: number[]; commits: number } {
  const wal = fs.readFileSync(walFile);
  const pageSize = wal.readUInt32BE(8);
  const salt = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  const pages: number[] = [];
  let commits = 0;
  for (let frame = fromFrame; ; frame++) {
    const at = WAL_HEADER_BYTES + frame * (FRAME_HEADER_BYTES + pageSize);
    if (at + FRAME_HEADER_BYTES + pageSize > wal.length) break;
    // A frame left over from before the WAL started over carries the old salt.
    if (wal.readUInt32BE(at + 8) !== salt[0] || wal.readUInt32BE(at + 12) !== salt[1]) break;
    pages.push(wal.readUInt32BE(at));
    if (wal.readUInt32BE(at + 4) !== 0) commits++;
  }
  return { pages, commits };
}

async function measure(code: ServerCode, scenario: PushScenario): Promise<WalPages> {
  const options = readOptions();
  return withBenchDatabase({ engine: 'sqlite', postgresUrl: options.postgresUrl, code }, (database) =>
    withServer(database, code, { pinning: { enabled: options.pin } }, async (server) => {
      const dataDir = database.env.DATA_DIR!;
      const file = path.join(dataDir, SQLITE_FILE);
      const prefix = `wal-${Date.now()}`;
      // Scenario (c): the leads merged into are made first, outside the frames counted.
      if (scenario.scenario === 'merge')
        await runLoad(loadSpecFor(server, 'merge', options, { prefix, amount: options.connections }), {
          enabled: options.pin,
        });
      const wal = watchWal(dataDir);
      const firstFrame = wal.frames();
      const load = await runLoad(
        loadSpecFor(server, scenario.scenario, options, {
          prefix,
          warmupSeconds: 0,
          ...requestSpec(server, scenario.request),
        }),
        { enabled: options.pin },
      );
      const { pages, commits } = readFrames(`${file}-wal`, firstFrame);
      wal.release();
      const names = new Map<number, string>();
      const reader = new DatabaseSync(file, { readOnly: true });
      for (const row of reader.prepare('select name, pageno from dbstat').all() as Array<{
        name: string;
        pageno: number;
      }>)
        names.set(row.pageno, row.name);
      reader.close();
      const pagesByTree = new Map<string, number>();
      for (const page of pages) {
        const name = names.get(page) ?? '(free or gone)';
        pagesByTree.set(name, (pagesByTree.get(name) ?? 0) + 1);
      }
      const leads = (load.requests ?? 0) * leadsPerRequest(scenario);
      log(`${code.label} ${scenario.label}: ${leads} leads, ${commits} commits, ${pages.length} pages`);
      return { code: code.label, scenario, leads, commits, pagesByTree, pages: pages.length };
    }),
  );
}

function render(runs: readonly WalPages[]): string {
  const out: string[] = [];
  for (const run of runs) {
    const per = (n: number) => (n / run.leads).toFixed(2);
    out.push(
      '',
      `${run.scenario.label} at ${run.code}: ${run.leads} leads in ${run.commits} commits ` +
        `(${(run.leads / run.commits).toFixed(1)} a commit), ${per(run.pages)} pages per lead, ` +
        `${(run.pages / run.commits).toFixed(1)} per commit`,
      '',
      '| b-tree | pages per lead | pages per commit |',
      '|---|---:|---:|',
      ...[...run.pagesByTree]
        .sort((a, b) => b[1] - a[1])
        .map(([name, n]) => `| ${name} | ${per(n)} | ${(n / run.commits).toFixed(1)} |`),
    );
  }
  return out.join('\n');
}

const keys = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['a', 'b', 'c', 'keyed'];
const scenarios = keys.map((key) => {
  const scenario = PUSH_SCENARIOS.find((s) => s.key === key);
  if (!scenario) throw new Error(`unknown scenario ${key} (${PUSH_SCENARIOS.map((s) => s.key).join(', ')})`);
  return scenario;
});
const baseline = readOptions().baseline;
const codes = [CURRENT_CODE, ...(baseline ? [prepareBaseline(baseline)] : [])];
const runs: WalPages[] = [];
for (const scenario of scenarios)
  for (const code of codes)
    if (!scenario.needs || !code.lacks(scenario.needs)) {
      const run = await measure(code, scenario);
      runs.push(run);
      process.stdout.write(`${render([run])}\n`);
    }
