// SQLite's inbox projector indexes a lead's words again only when a write changed them
// (migration 2026-11-30T10-00; docs/design.md section 13, "How far behind the inbox may be"):
// a re-sync that changes a birth date, or a broker's status change, stamps the lead but keeps
// its words, and the projector leaves its row of the word index alone. A broker never sees
// the difference: the search finds a lead by the words it has now, and never by words it had,
// through ten writes of one lead that change its words or keep them, in any order with the
// projector's runs, and when a change of words and a later write that keeps them fall on both
// sides of the end of one of the projector's batches (WORDS_PER_BATCH leads).
// The server runs no projector of its own (INBOX_PROJECTOR=false): each search projects what
// is past the mark first, so the test decides when the projector runs.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as migration from '../src/db/migrations/2026-11-30T10-00_search_words_changed_at.ts';
import { WORDS_PER_BATCH } from '../src/party/index.ts';
import { createApiToken } from '../src/auth/api-token.service.ts';
import { callApi } from './support/api-client.ts';
import { createBroker, openSignedIn, UserAgent } from './support/broker-app.ts';
import { pushLead } from './support/lead-client.ts';
import { dialect, startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  if (dialect === 'sqlite') server = await startTestServer({ INBOX_PROJECTOR: 'false' });
});
afterAll(async () => server?.close());

const names = (body: string) =>
  [...body.matchAll(/<th scope="row"><a href="\/app\/parties\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);

/** Last names that share no word's start with each other or the first one. */
const SURNAMES = ['Bloemendaal', 'Tichelaar', 'Rozendom'];

async function setUp() {
  const broker = await createBroker(server);
  const agent = new UserAgent(server);
  await openSignedIn(agent, `${server.url}/app`, broker.user.username);
  const search = async (q: string) => names((await agent.request(`${server.url}/app?q=${encodeURIComponent(q)}`)).body);
  const db = server.database.handle.db;
  /** The lead's words_at and the projector's copy of it: which words the index holds. */
  const wordsAt = async (leadId: string) => {
    const { rows } = await sql<{ lead: string | null; indexed: string | null }>`select l.words_at as lead,
        o.words_at as indexed from leads l left join lead_orders o on o.lead_rowid = l.rowid where l.id = ${leadId}`.execute(
      db,
    );
    return rows[0]!;
  };
  const push = (prospect: object) => pushLead(server, broker.tenant, 'customers', { prospect });
  return { broker, push, search, wordsAt };
}

it.skipIf(dialect !== 'sqlite')(
  'finds a lead by the words it has now through ten writes that change its words or keep them',
  async () => {
    const { broker, push, search, wordsAt } = await setUp();
    const first = await push({ first_name: 'Hieronymus', last_name: 'Quakkelaar' });
    expect(first.status).toBe(201);
    expect(await search('hieron quakk')).toEqual(['Hieronymus Quakkelaar']);
    expect(await wordsAt(first.body.id)).toEqual({ lead: null, indexed: null });

    let lastName = 'Quakkelaar';
    let indexedAt: string | null = null;
    for (let write = 1; write <= 10; write++) {
      const changesWords = write % 3 === 0;
      const before = lastName;
      if (changesWords) lastName = SURNAMES[write / 3 - 1]!;
      const merged = await push({
        id: first.body.party_id,
        first_name: 'Hieronymus',
        last_name: lastName,
        birth: `19${String(50 + write)}-01-02`,
      });
      expect(merged.status).toBe(200);
      expect(await search(`hieronymus ${lastName}`)).toEqual([`Hieronymus ${lastName}`]);
      if (changesWords) {
        expect(await search(`hieronymus ${before}`)).toEqual([]);
        indexedAt = merged.body.updated_at;
      }
      // The index holds the words of the last write that changed them: a write that kept them
      // left its row alone.
      expect(await wordsAt(first.body.id)).toEqual({ lead: indexedAt, indexed: indexedAt });
    }

    // A broker's status change keeps the words too.
    const crm = await createApiToken(server.database.handle.db, {
      distributionId: broker.tenant.distributionId,
      scopes: ['leads:write', 'leads:read', 'parties:update', 'parties:read'],
    });
    const won = await callApi(
      server,
      { token: crm.token },
      'PATCH',
      `/distributions/${broker.tenant.distributionId}/leads/${first.body.id}`,
      {
        body: { status: 'won' },
      },
    );
    expect(won.status).toBe(200);
    expect(await search(`hieronymus ${lastName}`)).toEqual([`Hieronymus ${lastName}`]);
    expect(await wordsAt(first.body.id)).toEqual({ lead: indexedAt, indexed: indexedAt });
  },
);

it.skipIf(dialect !== 'sqlite')(
  'indexes new words written before the end of a projector batch and kept by a write after it',
  async () => {
    const { broker, push, search } = await setUp();
    const lead = await push({ first_name: 'Wilhelmina', last_name: 'Oudeboom' });
    expect(await search('wilhelmina')).toEqual(['Wilhelmina Oudeboom']);
    // New words, then a batch's worth of other leads, then a write of the lead that keeps its
    // new words: its first write is before the end of the projector's first batch, the lead
    // itself (stamped by its last write) after it.
    expect((await push({ id: lead.body.party_id, first_name: 'Wilhelmina', last_name: 'Jonkhout' })).status).toBe(200);
    for (let i = 0; i < WORDS_PER_BATCH; i += 100) {
      const leads = Array.from({ length: 100 }, (_, j) => ({
        type: 'CUSTOMER',
        prospect: { first_name: 'Filler', last_name: `Lead${i + j}` },
      }));
      const batch = await callApi(
        server,
        broker.tenant,
        'POST',
        `/distributions/${broker.tenant.distributionId}/leads/batch`,
        {
          body: { leads },
        },
      );
      expect(batch.status).toBe(200);
    }
    const kept = await push({
      id: lead.body.party_id,
      first_name: 'Wilhelmina',
      last_name: 'Jonkhout',
      birth: '1960-05-06',
    });
    expect(kept.status).toBe(200);
    expect(await search('wilhelmina')).toEqual(['Wilhelmina Jonkhout']);
    expect(await search('jonkhout')).toEqual(['Wilhelmina Jonkhout']);
    expect(await search('oudeboom')).toEqual([]);
  },
);

it.skipIf(dialect !== 'sqlite')(
  'indexes the words of leads from before the migration once more, the next time they are past the mark',
  async () => {
    const { push, search, wordsAt } = await setUp();
    const lead = await push({ first_name: 'Gerolf', last_name: 'Vrijdaghs' });
    expect(await search('gerolf')).toEqual(['Gerolf Vrijdaghs']);
    const db = server.database.handle.db;
    await migration.down(db);
    await migration.up(db);
    // Unknown: the lead's row holds '' where its words' stamp was.
    expect(await wordsAt(lead.body.id)).toEqual({ lead: null, indexed: '' });
    const kept = await push({
      id: lead.body.party_id,
      first_name: 'Gerolf',
      last_name: 'Vrijdaghs',
      birth: '1977-07-07',
    });
    expect(kept.status).toBe(200);
    expect(await search('gerolf vrijd')).toEqual(['Gerolf Vrijdaghs']);
    expect(await wordsAt(lead.body.id)).toEqual({ lead: null, indexed: null });
    const renamed = await push({ id: lead.body.party_id, first_name: 'Gerolf', last_name: 'Pannekoeke' });
    expect(await search('pannek')).toEqual(['Gerolf Pannekoeke']);
    expect(await search('vrijd')).toEqual([]);
    expect(await wordsAt(lead.body.id)).toEqual({ lead: renamed.body.updated_at, indexed: renamed.body.updated_at });
  },
);
