// What the inbox reads on PostgreSQL, counted rather than timed: the counts per status of
// every inbox page and the projector's look-up for work (every second, in every process)
// read the leads past the projector's mark through an index, not every lead of the
// distribution. Our connections plan statements generically (db/database.ts), and a generic
// plan took "created since the mark" for a third of the leads and scanned them all: 60 ms at
// 100,000 leads per inbox page (bench/inbox.ts). Counted in the statements' own transaction
// (pg_stat_xact_user_tables), so nothing else running on the database can move the count.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { countByStatus, distributionsBehind } from '../src/party/index.ts';
import { createTenant, createTestDatabase, dialect, type TestDatabase } from './support/test-server.ts';

const LEADS = 5_000;

describe.skipIf(dialect !== 'postgres')('the inbox’s counts on PostgreSQL', () => {
  let database: TestDatabase;
  let distributionId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    distributionId = (await createTenant(database.handle, ['leads:read'])).distributionId;
    const db = database.handle.db;
    // Leads of the last days, all counted by the projector (its mark is now), as on a live database.
    await sql`insert into parties (id, distribution_id, type, data, version, created_at, updated_at)
      select 'p-' || n, ${distributionId}, 'CUSTOMER', '{"first_name":"An","last_name":"Peeters"}', 1,
        to_char(now() - n * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        to_char(now() - n * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      from generate_series(1, ${LEADS}) n`.execute(db);
    await sql`insert into leads (id, distribution_id, party_id, status, search_words, created_at, updated_at, status_changed_at)
      select 'l-' || substr(p.id, 3), p.distribution_id, p.id, 'new', 'an peeters', p.created_at, p.updated_at, p.created_at
      from parties p where p.distribution_id = ${distributionId}`.execute(db);
    await sql`insert into lead_pushes (id, lead_id, distribution_id, received_at, status, caller, origin, kind, payload)
      select 'c-' || substr(l.id, 3), l.id, l.distribution_id, l.created_at, 201, 'token:t', 'web', 'CUSTOMER', '{}'
      from leads l where l.distribution_id = ${distributionId}`.execute(db);
    const now = new Date().toISOString();
    await db
      .insertInto('lead_projections')
      .values({ distribution_id: distributionId, counted_to: now, sourced_to: now, indexed_at: '', indexed_id: '' })
      .execute();
    await db
      .insertInto('lead_status_counts')
      .values({ distribution_id: distributionId, status: 'new', leads: LEADS })
      .execute();
    await sql`analyze`.execute(db);
  }, 60_000);
  afterAll(async () => database?.drop());

  /** What `read` returns, and how many rows of `table` it read by a sequential scan, in one transaction. */
  async function scanned<T>(
    read: (trx: Kysely<Database>) => Promise<T>,
    table = 'leads',
  ): Promise<{ result: T; seqRows: number }> {
    return database.handle.db.transaction().execute(async (trx) => {
      const result = await read(trx);
      const { rows } = await sql<{ seq: string | null }>`
        select seq_tup_read as seq from pg_stat_xact_user_tables where relid = ${table}::regclass`.execute(trx);
      return { result, seqRows: Number(rows[0]?.seq ?? 0) };
    });
  }

  it('counts the leads per status without reading the leads already counted', async () => {
    const { result, seqRows } = await scanned((trx) => countByStatus(trx, distributionId));
    expect(Object.fromEntries(result)).toEqual({ new: LEADS });
    expect(seqRows).toBe(0);
  });

  it('finds nothing to project without reading the leads already counted', async () => {
    const { result, seqRows } = await scanned((trx) => distributionsBehind(trx, 'postgres'));
    expect(result).not.toContain(distributionId);
    expect(seqRows).toBe(0);
  });

  it('finds no push to fold into the sources’ sums without reading the pushes already folded', async () => {
    const { result, seqRows } = await scanned((trx) => distributionsBehind(trx, 'postgres'), 'lead_pushes');
    expect(result).not.toContain(distributionId);
    expect(seqRows).toBe(0);
  });
});
