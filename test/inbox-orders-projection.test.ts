// The inbox's orders by status, name and kind, which SQLite reads from `lead_orders`, filled
// by the inbox projector after the pushes' commits (migration 2026-11-30T08-00; docs/design.md
// section 13, "How far behind the inbox may be"). A broker never sees the difference: a lead
// is in its place in each order as soon as its push or change has answered, once and only
// once, before and after the projector has passed it, through ten renames and status changes
// of one lead (its id kept), and gone with its erasure. On SQLite each of these orders is read
// through its index of lead_orders, either way, a page and the next, never sorted whole; the
// migration copies what the leads already there sort by.
import { type Kysely, type KyselyPlugin, type CompiledQuery, sql, SqliteQueryCompiler } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../src/auth/api-token.service.ts';
import type { Database } from '../src/db/database.ts';
import * as migration from '../src/db/migrations/2026-11-30T08-00_inbox_orders_projected.ts';
import { type InboxQuery, inboxPosition, listInboxRows } from '../src/party/index.ts';
import { callApi } from './support/api-client.ts';
import { createBroker, inboxRowsOf, openSignedIn, UserAgent } from './support/broker-app.ts';
import { companyLead } from './support/demo-portfolio.ts';
import { eventually } from './support/eventually.ts';
import { pushLead } from './support/lead-client.ts';
import { createTenant, createTestDatabase, dialect, startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

type Row = { name: string; status: string; kind: string };
const rowsOf = (body: string): Row[] => inboxRowsOf(body).map(({ name, status, kind }) => ({ name, status, kind }));

const STATUSES = ['new', 'contacted', 'quoted', 'won', 'lost'] as const;
/** As the name column sorts: last name then first name, folded; a company by its name. */
const sortKey = (name: string, kind: string) =>
  (kind === 'Company' ? name : name.split(' ').reverse().join(' '))
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/** Whether the projector has passed every lead of the distribution as it is now. */
async function projected(distributionId: string): Promise<boolean> {
  const db = server.database.handle.db;
  const [last] = await db
    .selectFrom('leads')
    .select('updated_at')
    .where('distribution_id', '=', distributionId)
    .orderBy('updated_at', 'desc')
    .limit(1)
    .execute();
  const mark = await db
    .selectFrom('lead_projections')
    .selectAll()
    .where('distribution_id', '=', distributionId)
    .executeTakeFirst();
  return (
    last !== undefined &&
    mark !== undefined &&
    mark.counted_to > last.updated_at &&
    (dialect === 'postgres' || mark.indexed_at > last.updated_at)
  );
}

it('puts a lead in its place by status, name and kind as soon as its push or change answered, through ten changes, and drops it with its erasure', async () => {
  const broker = await createBroker(server);
  const token = await createApiToken(server.database.handle.db, {
    distributionId: broker.tenant.distributionId,
    scopes: ['leads:write', 'leads:read', 'parties:update', 'parties:erase'],
  });
  const crm = { distributionId: broker.tenant.distributionId, token: token.token };
  const d = `/distributions/${crm.distributionId}`;
  const agent = new UserAgent(server);
  await openSignedIn(agent, `${server.url}/app`, broker.user.username);
  const page = async (query: string) => {
    const answer = await agent.request(`${server.url}/app?${query}`);
    expect(answer.status).toBe(200);
    return rowsOf(answer.body);
  };

  // What the broker should see: every lead once, each order sorted as the model sorts it.
  const model = new Map<string, Row>();
  const expectOrders = async (when: string) => {
    const all = [...model.values()];
    const byName = [...all].sort((a, b) => (sortKey(a.name, a.kind) < sortKey(b.name, b.kind) ? -1 : 1));
    expect(
      (await page('sort=name')).map((row) => row.name),
      `name, ${when}`,
    ).toEqual(byName.map((row) => row.name));
    expect(
      (await page('sort=name&dir=desc')).map((row) => row.name),
      `name desc, ${when}`,
    ).toEqual(byName.map((row) => row.name).reverse());
    for (const [query, key] of [
      ['sort=status', (row: Row) => STATUSES.indexOf(row.status as (typeof STATUSES)[number])],
      ['sort=kind', (row: Row) => row.kind],
    ] as const) {
      for (const dir of ['asc', 'desc'] as const) {
        const rows = await page(`${query}${dir === 'desc' ? '&dir=desc' : ''}`);
        expect(rows.map((row) => row.name).sort(), `${query} ${dir}, ${when}`).toEqual(
          all.map((row) => row.name).sort(),
        );
        const keys = rows.map((row): string | number => key(row));
        const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(keys, `${query} ${dir}, ${when}`).toEqual(dir === 'asc' ? sorted : sorted.reverse());
        // What the row shows is the lead as it is now, the place it has too.
        for (const row of rows) expect(row, `${query} ${dir}, ${when}`).toEqual(model.get(row.name));
      }
    }
  };

  for (const [first, last] of [
    ['Maarten', 'Mertens'],
    ['Ilse', 'Janssens'],
    ['Rik', 'Ruelens'],
  ]) {
    const pushed = await pushLead(server, crm, 'customers', { prospect: { first_name: first, last_name: last } });
    expect(pushed.status).toBe(201);
    model.set(`${first} ${last}`, { name: `${first} ${last}`, status: 'new', kind: 'Person' });
  }
  const sample = companyLead();
  const company = await pushLead(server, crm, 'companies', {
    ...sample,
    prospect: { ...sample.prospect, name: 'Houtzagerij Lambrechts', external_refs: [] },
  });
  expect(company.status).toBe(201);
  model.set('Houtzagerij Lambrechts', { name: 'Houtzagerij Lambrechts', status: 'new', kind: 'Company' });
  await expectOrders('after the first pushes');

  // One lead, renamed by a push and moved through the workflow by a PATCH, ten times over.
  const moving = await pushLead(server, crm, 'customers', { prospect: { first_name: 'Ann', last_name: 'Aerts' } });
  model.set('Ann Aerts', { name: 'Ann Aerts', status: 'new', kind: 'Person' });
  let current = 'Ann Aerts';
  const lastNames = [
    'Zegers',
    'Bosmans',
    'Lemmens',
    'Aerts',
    'Wouters',
    'Claes',
    'Peeters',
    'Maes',
    'Dupont',
    'Évrard',
  ];
  for (const [i, lastName] of lastNames.entries()) {
    const renamed = await pushLead(server, crm, 'customers', {
      prospect: { id: moving.body.party_id, first_name: 'Ann', last_name: lastName },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.id).toBe(moving.body.id);
    const status = STATUSES[(i + 1) % STATUSES.length]!;
    const patched = await callApi(server, crm, 'PATCH', `${d}/leads/${moving.body.id}`, {
      body: status === 'lost' ? { status, lost_reason: 'price' } : { status },
    });
    expect(patched.status).toBe(200);
    model.delete(current);
    current = `Ann ${lastName}`;
    model.set(current, { name: current, status, kind: 'Person' });
    await expectOrders(`change ${i + 1}`);
  }

  await eventually(() => projected(crm.distributionId), 20_000, 'the projector past every lead');
  await expectOrders('after the projector passed');

  const erased = await callApi(server, crm, 'DELETE', `${d}/parties/${moving.body.party_id}`);
  expect(erased.status).toBe(200);
  model.delete(current);
  await expectOrders('after the erasure');
});

describe.skipIf(dialect !== 'sqlite')('lead_orders on SQLite', () => {
  /** Records the SQL of the queries run through it, as SQLite runs them. */
  function recording(db: Kysely<Database>): { db: Kysely<Database>; queries: CompiledQuery[] } {
    const queries: CompiledQuery[] = [];
    const compiler = new SqliteQueryCompiler();
    const plugin: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => {
        queries.push(compiler.compileQuery(node as never, queryId));
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    return { db: db.withPlugin(plugin), queries };
  }

  it('reads each order through its index of lead_orders, either way, a page and the next, never sorted whole', async () => {
    const broker = await createBroker(server);
    const crm = { distributionId: broker.tenant.distributionId, token: broker.tenant.token };
    for (let i = 0; i < 12; i++)
      await pushLead(server, crm, i % 4 === 0 ? 'companies' : 'customers', {
        prospect:
          i % 4 === 0
            ? { name: `Firma ${i}`, external_refs: [] }
            : { first_name: 'Lien', last_name: `Smets ${String(i).padStart(2, '0')}` },
      });
    await eventually(() => projected(crm.distributionId), 20_000, 'the projector past every lead');
    const indexes = { name: 'lead_orders_sort_name', status: 'lead_orders_status', kind: 'lead_orders_kind' };
    for (const [sort, index] of Object.entries(indexes) as Array<[InboxQuery['sort'], string]>)
      for (const direction of ['asc', 'desc'] as const) {
        const query: InboxQuery = { distributionId: crm.distributionId, sort, direction, limit: 5 };
        const { db, queries } = recording(server.database.handle.db);
        const first = await listInboxRows(db, 'sqlite', query);
        const next = await listInboxRows(db, 'sqlite', { ...query, before: inboxPosition(sort, first[4]!) });
        expect(next[0]!.lead_id).toBe(first[5]!.lead_id);
        expect(queries.length).toBeGreaterThanOrEqual(2);
        const [firstQuery, nextQuery] = [queries[0]!, queries.at(-1)!];
        for (const compiled of [firstQuery, nextQuery]) {
          const { rows } = await server.database.handle.db.executeQuery<{ detail: string }>({
            ...compiled,
            sql: `explain query plan ${compiled.sql}`,
          });
          const plan = rows.map((row) => row.detail).join('\n');
          expect(plan, `${sort} ${direction}`).toMatch(new RegExp(`lead_orders USING (COVERING )?INDEX ${index}\\b`));
          expect(plan, `${sort} ${direction}`).not.toContain('TEMP B-TREE');
        }
      }
  });

  it('copies what the leads already there sort by when migrating, and gives the indexes back to leads when undone', async () => {
    const database = await createTestDatabase();
    try {
      const db = database.handle.db as unknown as Kysely<any>;
      const { distributionId } = await createTenant(database.handle);
      const indexesOfLeads = async () =>
        (
          await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'index' and tbl_name = 'leads'`.execute(db)
        ).rows.map((row) => row.name);
      const moved = ['leads_status_order', 'leads_sort_name', 'leads_kind'];
      expect(await indexesOfLeads()).not.toEqual(expect.arrayContaining([moved[0]]));
      await migration.down(db);
      expect(await indexesOfLeads()).toEqual(expect.arrayContaining(moved));
      const now = '2026-11-28T00:00:00.000Z';
      const leads = [
        ['CUSTOMER', 'eclair zoe', 'won'],
        ['COMPANY', 'houtzagerij lambrechts', 'new'],
        ['CUSTOMER', null, 'lost'],
      ] as const;
      for (const [n, [type, sortName, status]] of leads.entries()) {
        await db
          .insertInto('parties')
          .values({
            id: `p-${n}`,
            distribution_id: distributionId,
            type,
            data: '{}',
            version: 1,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await db
          .insertInto('leads')
          .values({
            id: `l-${n}`,
            distribution_id: distributionId,
            party_id: `p-${n}`,
            status,
            sort_name: sortName,
            kind: type,
            search_words: '',
            created_at: now,
            updated_at: now,
            status_changed_at: now,
          })
          .execute();
      }
      await migration.up(db);
      expect(await indexesOfLeads()).not.toEqual(expect.arrayContaining([moved[0]]));
      expect(await indexesOfLeads()).not.toEqual(expect.arrayContaining([moved[1]]));
      expect(await indexesOfLeads()).not.toEqual(expect.arrayContaining([moved[2]]));
      const { rows } = await sql`select o.id, o.status_rank, o.sort_name, o.kind from lead_orders o
        join leads l on l.rowid = o.lead_rowid where l.distribution_id = ${distributionId} order by o.id`.execute(db);
      expect(rows).toEqual([
        { id: 'l-0', status_rank: 3, sort_name: 'eclair zoe', kind: 'CUSTOMER' },
        { id: 'l-1', status_rank: 0, sort_name: 'houtzagerij lambrechts', kind: 'COMPANY' },
        { id: 'l-2', status_rank: 4, sort_name: null, kind: 'CUSTOMER' },
      ]);
      // A lead deleted takes its row along (an erasure, a merge, retention).
      await db.deleteFrom('leads').where('id', '=', 'l-0').execute();
      const left = await sql`select id from lead_orders order by id`.execute(db);
      expect(left.rows).toEqual([{ id: 'l-1' }, { id: 'l-2' }]);
    } finally {
      await database.drop();
    }
  });
});
