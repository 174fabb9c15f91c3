// What the inbox reads on PostgreSQL, counted rather than timed: the counts per status of
// every inbox page and the projector's look-up for work (every second, in every process)
// read the leads past the projector's mark through an index, not every lead of the
// distribution. Our connections plan statements generically (db/database.ts), and a generic
// plan took "created since the mark" for a third of the leads and scanned them all: 60 ms at
// 100,000 leads per inbox page (bench/inbox.ts). Counted in the statements' own transaction
// (pg_stat_xact_user_tables), so nothing else running on the database can move the count.
// And every order of the inbox's columns, either way, first page and the next: read through its
// index, a page's leads and no more (docs/design.md section 13, the inbox's orders).
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import {
  countByStatus,
  distributionsBehind,
  type InboxQuery,
  inboxPosition,
  listInboxRows,
  listLeadRows,
} from '../src/party/index.ts';
import { createUser } from '../src/sso/index.ts';
import { PASSWORD } from './support/sso.ts';
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

  /**
   * What `read` returns, and how many rows of `table` it read by a sequential scan and fetched
   * through an index. Counted before and after it in its own transaction: the backend's counts
   * (pg_stat_xact_user_tables) also hold what it did before and has not reported yet.
   */
  async function scanned<T>(
    read: (trx: Kysely<Database>) => Promise<T>,
    table = 'leads',
  ): Promise<{ result: T; seqRows: number; fetchedRows: number }> {
    return database.handle.db.transaction().execute(async (trx) => {
      const counts = async () => {
        const { rows } = await sql<{ seq: string | null; fetched: string | null }>`
          select seq_tup_read as seq, idx_tup_fetch as fetched from pg_stat_xact_user_tables
          where relid = ${table}::regclass`.execute(trx);
        return { seq: Number(rows[0]?.seq ?? 0), fetched: Number(rows[0]?.fetched ?? 0) };
      };
      const before = await counts();
      const result = await read(trx);
      const after = await counts();
      return { result, seqRows: after.seq - before.seq, fetchedRows: after.fetched - before.fetched };
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

  it('reads every order of the inbox through its index, either way, a page and one a thousand leads deep, not the leads before it', async () => {
    // Leads with every value an order sorts by, and some without (no origin, no name, no assignee).
    const db = database.handle.db;
    const sorted = (await createTenant(database.handle, ['leads:read'])).distributionId;
    await sql`insert into parties (id, distribution_id, type, data, version, created_at, updated_at)
      select 'sp-' || n, ${sorted}, case when n % 4 = 0 then 'COMPANY' else 'CUSTOMER' end, '{}', 1,
        to_char(now() - n * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        to_char(now() - n * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      from generate_series(1, ${LEADS}) n`.execute(db);
    await sql`insert into leads (id, distribution_id, party_id, status, origin, sort_name, kind, follow_up_on,
        search_words, created_at, updated_at, status_changed_at)
      select 'sl-' || substr(p.id, 4), p.distribution_id, p.id,
        (array['new', 'contacted', 'quoted', 'won', 'lost'])[1 + substr(p.id, 4)::int % 5],
        case when substr(p.id, 4)::int % 3 = 0 then null else 'crm-' || substr(p.id, 4)::int % 7 end,
        case when substr(p.id, 4)::int % 10 = 0 then null else 'peeters ' || substr(p.id, 4) end,
        p.type, case when substr(p.id, 4)::int % 2 = 0 then '2026-12-' || lpad((1 + substr(p.id, 4)::int % 28)::text, 2, '0') end,
        'an peeters', p.created_at, p.updated_at, p.created_at
      from parties p where p.distribution_id = ${sorted}`.execute(db);
    // Three users, each assigned every fourth lead; the fourth quarter assigned to nobody.
    const users: string[] = [];
    for (const name of ['ann', 'bob', 'cas'])
      users.push(
        (
          await createUser(db, {
            distributionId: sorted,
            email: `${name}@example.be`,
            username: name,
            password: PASSWORD,
          })
        ).id,
      );
    await sql`update leads set assignee_id = (array[${users[0]}, ${users[1]}, ${users[2]}, null])[1 + substr(id, 4)::int % 4]
      where distribution_id = ${sorted}`.execute(db);
    await sql`analyze leads`.execute(db);

    const PAGE = 25;
    const DEEP = 1000;
    for (const sort of ['changed', 'received', 'follow_up', 'name', 'status', 'kind', 'origin', 'assignee'] as const)
      for (const direction of ['asc', 'desc'] as const) {
        const query: InboxQuery = { distributionId: sorted, sort, direction, limit: PAGE };
        // A page is read with the lead after it, which says whether there is a next page.
        const first = await scanned((trx) => listInboxRows(trx, 'postgres', query));
        expect(first.result, `${sort} ${direction}`).toHaveLength(PAGE + 1);
        // A page deep in the order: it starts where the first DEEP leads end.
        const leading = await listInboxRows(db, 'postgres', { ...query, limit: DEEP });
        const before = inboxPosition(sort, leading[DEEP - 1]!);
        const deep = await scanned((trx) => listInboxRows(trx, 'postgres', { ...query, before }));
        expect(deep.result[0]!.lead_id, `${sort} ${direction}`).toBe(leading[DEEP]!.lead_id);
        for (const read of [first, deep]) {
          expect(read.seqRows, `${sort} ${direction}`).toBe(0);
          // A page's leads and the one after it, however deep: not the DEEP before it.
          expect(read.fetchedRows, `${sort} ${direction}`).toBeLessThan(2 * PAGE);
        }
      }
  });

  it('reads a page of the change listing a thousand leads deep through its index, not the leads before it', async () => {
    const PAGE = 100;
    const query = { distributionId, limit: PAGE };
    const leading = await listLeadRows(database.handle.db, { ...query, limit: 1000 }, undefined);
    const after = { at: leading[999]!.updated_at, id: leading[999]!.id };
    const deep = await scanned((trx) => listLeadRows(trx, { ...query, after }, undefined));
    expect(deep.result[0]!.id).toBe(leading[1000]!.id);
    expect(deep.result).toHaveLength(PAGE + 1);
    expect(deep.seqRows).toBe(0);
    expect(deep.fetchedRows).toBeLessThan(2 * PAGE);
  });
});
