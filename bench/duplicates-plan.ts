// What one look-up of possible duplicates reads (bench/duplicates.ts), counted on the seeded
// database for every sampled party, so noise cannot change it: the key entries its join
// visits (the party's own keys and every entry sharing one), the rows of leads and parties it
// reads (one each per party listed: only those whose shared key gives a reason), and the
// database's own account of both statements, SQLite's query plan (each table searched by an
// index, none scanned) and PostgreSQL's buffers per execution (EXPLAIN ANALYZE, BUFFERS)
// with the plan's scans.
import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { Database, Dialect } from '../src/db/database.ts';
import { reasonOf, sharedKeysQuery, sharedPartiesQuery } from '../src/party/index.ts';

export interface LookUpReads {
  /** Means per look-up over the sampled parties. */
  readonly keyEntries: number;
  readonly rowsReturned: number;
  /** PostgreSQL: shared buffers hit or read per execution; null on SQLite. */
  readonly buffers: number | null;
  /** The plan's access to each table, one line each, the same for every party. */
  readonly plan: string[];
}

export async function lookUpReads(
  db: Kysely<Database>,
  dialect: Dialect,
  partyIds: readonly string[],
): Promise<LookUpReads> {
  let keyEntries = 0;
  let rowsReturned = 0;
  let buffers = 0;
  let plan: string[] = [];
  for (const partyId of partyIds) {
    const entries = await sql<{ n: number | string }>`
      select (select count(*) from party_duplicate_keys where party_id = ${partyId})
        + (select count(*) from party_duplicate_keys own join party_duplicate_keys other
            on other.distribution_id = own.distribution_id and other.kind = own.kind and other.key = own.key
          where own.party_id = ${partyId}) as n`.execute(db);
    keyEntries += Number(entries.rows[0]!.n);
    const keysQuery = sharedKeysQuery(db, partyId).compile();
    const keys = (await db.executeQuery(keysQuery)).rows.filter(
      (row) => reasonOf({ kind: row.kind, name: row.name, ownName: row.own_name }) !== undefined,
    );
    const listed = [...new Set(keys.map((row) => row.party_id))];
    const partiesQuery = sharedPartiesQuery(db, listed.length > 0 ? listed : [partyId]).compile();
    if (listed.length > 0) rowsReturned += (await db.executeQuery(partiesQuery)).rows.length;
    plan = [];
    for (const query of [keysQuery, partiesQuery]) {
      if (dialect === 'postgres') {
        const explained = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: PgNode }] }>(
          CompiledQuery.raw(`explain (analyze, buffers, format json) ${query.sql}`, [...query.parameters]),
        );
        const root = explained.rows[0]!['QUERY PLAN'][0].Plan;
        if (query === keysQuery || listed.length > 0)
          buffers += (root['Shared Hit Blocks'] ?? 0) + (root['Shared Read Blocks'] ?? 0);
        plan.push(...scansOf(root));
      } else {
        const explained = await db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
        );
        plan.push(...explained.rows.map((row) => row.detail));
      }
    }
  }
  const n = Math.max(1, partyIds.length);
  return {
    keyEntries: keyEntries / n,
    rowsReturned: rowsReturned / n,
    buffers: dialect === 'postgres' ? buffers / n : null,
    plan,
  };
}

interface PgNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly Alias?: string;
  readonly 'Index Name'?: string;
  readonly 'Shared Hit Blocks'?: number;
  readonly 'Shared Read Blocks'?: number;
  readonly Plans?: PgNode[];
}

function scansOf(node: PgNode): string[] {
  const own =
    node['Relation Name'] === undefined
      ? []
      : [
          `${node['Node Type']} on ${node['Relation Name']} ${node.Alias ?? ''}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}`,
        ];
  return [...own, ...(node.Plans ?? []).flatMap(scansOf)];
}
