// Statements per push, per scenario and database: the server counts every statement it
// runs (`lead_intake_database_statements_total` on /metrics), the API token lookup and the
// transaction's BEGIN and COMMIT included; this pushes a few bodies of each scenario one at
// a time and divides. The webhook worker is off, so its polling does not count. On SQLite
// group commit shares BEGIN and COMMIT among the pushes of a batch under load; on
// PostgreSQL every statement is a round trip.
//   npx node bench/statements.ts            (both databases)
//   BENCH_DATABASES=sqlite npx node bench/statements.ts
import { randomBytes } from 'node:crypto';
import { withBenchServer } from './bench-server.ts';
import type { BenchDialect } from './database.ts';
import { readOptions } from './options.ts';
import { fullBodies, mergeBodies, mergeTargetBodies, minimalBodies, type BodyFactory } from './payloads.ts';
import { statementsSoFar } from './server-metrics.ts';

export interface StatementCount {
  readonly dialect: BenchDialect;
  readonly label: string;
  /** Statements per push, through the query builder. */
  readonly statements: number;
  /** Client-server round trips per push on PostgreSQL (its statements); null on SQLite. */
  readonly roundTrips: number | null;
}

const PUSHES = 20;
const TARGETS = 5;

export async function countStatements(
  dialects: readonly BenchDialect[],
  postgresUrl: string,
): Promise<StatementCount[]> {
  const results: StatementCount[] = [];
  for (const dialect of dialects) {
    await withBenchServer(
      { engine: dialect, postgresUrl, pinning: { enabled: false }, env: { WEBHOOK_WORKER: 'false' } },
      async (server) => {
        const url = `${server.url}${server.pushPath}`;
        const push = async (body: string) => {
          const response = await fetch(url, {
            method: 'POST',
            headers: { authorization: `apikey ${server.token}`, 'content-type': 'application/json' },
            body,
          });
          if (!response.ok) throw new Error(`push answered ${response.status}: ${await response.text()}`);
        };
        const counted = async (next: BodyFactory): Promise<number> => {
          const before = await statementsSoFar(server.url);
          for (let i = 0; i < PUSHES; i++) await push(next());
          return ((await statementsSoFar(server.url)) - before) / PUSHES;
        };
        const prefix = randomBytes(4).toString('hex');
        const targets = mergeTargetBodies(prefix);
        for (let i = 0; i < TARGETS; i++) await push(targets());
        const scenarios: Array<[string, BodyFactory]> = [
          // Prefixes of their own: a full push reusing a minimal push's ref would merge.
          ['(a) minimal push, new lead', minimalBodies(`${prefix}-a`)],
          ['(b) full push, new lead', fullBodies(`${prefix}-b`)],
          ['(c) merge into existing lead', mergeBodies(prefix, TARGETS)],
        ];
        for (const [label, next] of scenarios) {
          const statements = await counted(next);
          results.push({ dialect, label, statements, roundTrips: dialect === 'postgres' ? statements : null });
        }
        // The broker's work against a PATCH of the party (docs/design.md section 13): each of 20
        // leads gets its telephone number changed, then its status set, one request at a time.
        const work = minimalBodies(`${prefix}-work`);
        const created: Array<{ id: string; party_id: string }> = [];
        for (let i = 0; i < PUSHES; i++) {
          const response = await fetch(url, {
            method: 'POST',
            headers: { authorization: `apikey ${server.token}`, 'content-type': 'application/json' },
            body: work(),
          });
          created.push((await response.json()) as { id: string; party_id: string });
        }
        const patch = async (path: string, body: object) => {
          const response = await fetch(`${url.replace(/\/leads\/customers$/, '')}${path}`, {
            method: 'PATCH',
            headers: { authorization: `apikey ${server.token}`, 'content-type': 'application/merge-patch+json' },
            body: JSON.stringify(body),
          });
          if (!response.ok) throw new Error(`PATCH ${path} answered ${response.status}: ${await response.text()}`);
        };
        for (const [label, each] of [
          [
            'PATCH .../parties/{id}, the telephone number',
            (lead: (typeof created)[number], i: number) =>
              patch(`/parties/${lead.party_id}`, { telephonenr: `+32 9 000 00 ${String(i).padStart(2, '0')}` }),
          ],
          [
            'PATCH .../leads/{id}, the status',
            (lead: (typeof created)[number]) => patch(`/leads/${lead.id}`, { status: 'contacted' }),
          ],
        ] as const) {
          const before = await statementsSoFar(server.url);
          for (const [i, lead] of created.entries()) await each(lead, i);
          const statements = ((await statementsSoFar(server.url)) - before) / PUSHES;
          results.push({ dialect, label, statements, roundTrips: dialect === 'postgres' ? statements : null });
        }
        // A listing page of 100 leads (no transaction: its statements are its round trips).
        const more = minimalBodies(`${prefix}-page`);
        for (let i = 0; i < 100; i++) await push(more());
        const before = await statementsSoFar(server.url);
        const page = await fetch(`${url.replace(/\/customers$/, '')}?limit=100`, {
          headers: { authorization: `apikey ${server.token}` },
        });
        const items = ((await page.json()) as { items: unknown[] }).items.length;
        if (!page.ok || items !== 100) throw new Error(`GET leads answered ${page.status} with ${items} leads`);
        const statements = (await statementsSoFar(server.url)) - before;
        results.push({
          dialect,
          label: 'GET .../leads, 100 leads per page (per page)',
          statements,
          roundTrips: dialect === 'postgres' ? statements : null,
        });
      },
    );
  }
  return results;
}

export function renderStatementTable(counts: readonly StatementCount[]): string {
  const rows = counts.map(
    (c) =>
      `| ${c.dialect} | ${c.label} | ${c.statements.toFixed(1)} | ${c.roundTrips === null ? 'n/a' : c.roundTrips.toFixed(1)} |`,
  );
  return [
    '| Database | Scenario | statements per push | PostgreSQL round trips per push |',
    '|---|---|---:|---:|',
    ...rows,
    '',
  ].join('\n');
}

if (import.meta.main) {
  const options = readOptions();
  process.stdout.write(renderStatementTable(await countStatements(options.databases, options.postgresUrl)));
}
