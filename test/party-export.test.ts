// Access and portability (docs/design.md section 15): one JSON document with everything
// kept about a person, as an attachment, from the API and the CLI; the CLI erases too; and
// every erasure and export is in the audit log, which names no person.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { childEnv, cliJson, runCli } from './support/cli.ts';
import { main } from '../src/cli/main.ts';
import { eventually } from './support/eventually.ts';
import { pushLead } from './support/lead-client.ts';
import { pushRichPerson, tablesContaining, uniqueMarker } from './support/personal-data.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { startReceiver } from './support/webhook-receiver.ts';

let server: TestServer;
let tenant: Tenant;
let other: Tenant;
const SCOPES = ['leads:write', 'leads:read', 'parties:read', 'parties:update', 'parties:erase'];

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, SCOPES);
  other = await createTenant(server.database.handle, SCOPES);
});
afterAll(() => server.close());

const d = (t: Tenant = tenant) => `/distributions/${t.distributionId}`;
const env = () => server.database.env;

describe('GET .../parties/{party_id}/export', () => {
  it('answers one attachment with the lead and every stored row about the person, push bodies as received', async () => {
    const person = await pushRichPerson(server, tenant);
    // A body with its own spacing and key order: the export keeps it byte for byte.
    const raw = `{ "prospect" : {"last_name":"Family${person.marker}",  "first_name":"${person.marker}",
      "external_refs":[{"external_ref":"${person.ref}","external_ref_company":"crm"}], "telephonenr": "+32 9 000 00 01"} }`;
    expect((await pushLead(server, tenant, 'customers', raw)).status).toBe(200);

    const response = await fetch(`${server.url}/v1/api${d()}/parties/${person.partyId}/export`, {
      headers: { authorization: `apikey ${tenant.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="party-${person.partyId}.json"`);
    const document = (await response.json()) as any;
    const lead = await callApi(server, tenant, 'GET', `${d()}/leads/${person.leadId}`);
    expect(document).toMatchObject({ party_id: person.partyId, distribution_id: tenant.distributionId });
    expect(document.lead).toEqual(lead.body);
    const count = (kind: string) => document.records[kind].length;
    expect(count('parties')).toBe(1);
    expect(count('leads')).toBe(1);
    expect(count('external_refs')).toBe(2);
    expect(count('risk_object_revisions')).toBe(2);
    expect(count('coverages')).toBe(1);
    expect(count('push_log')).toBe(3);
    expect(count('changes')).toBe(2);
    expect(count('notes')).toBe(1);
    expect(count('webhook_events')).toBeGreaterThanOrEqual(4);
    expect(count('webhook_deliveries')).toBe(count('webhook_events'));
    expect(document.records.notes[0].body).toBe(`Note about ${person.marker}`);
    expect(document.records.parties[0].data).toMatchObject({
      first_name: person.marker,
      telephonenr: '+32 9 000 00 01',
    });
    expect(document.records.push_log.map((entry: { payload: string }) => entry.payload)).toContain(raw);
    expect(document.records.webhook_deliveries[0]).toHaveProperty('status');
  });

  it('shows the audit entries about the person and the 410s remembered for their callback URLs', async () => {
    const own = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    const receiver = await startReceiver();
    try {
      const t = await createTenant(own.database.handle, SCOPES);
      const path = `/hooks/${uniqueMarker()}`;
      receiver.script(path, { status: 410 });
      const pushed = await pushLead(own, t, 'customers', {
        prospect: {
          first_name: 'Ann',
          last_name: uniqueMarker(),
          callbacks: [receiver.url(path), receiver.url('/ok')],
        },
      });
      expect(pushed.status).toBe(201);
      await receiver.waitFor(path, 1);
      const exportOf = async () => {
        const reply = await callApi(
          own,
          t,
          'GET',
          `/distributions/${t.distributionId}/parties/${pushed.body.party_id}/export`,
        );
        expect(reply.status).toBe(200);
        return reply.body.records;
      };
      const first = await eventually(async () => {
        const records = await exportOf();
        return records.webhook_stopped_urls.length > 0 ? records : undefined;
      });
      // The URL that answered 410, not the one that took the event.
      expect(first.webhook_stopped_urls).toEqual([
        { url: receiver.url(path), stopped_at: expect.any(String), delivery_id: expect.any(String) },
      ]);
      const second = await exportOf();
      const exports = second.audit_log.filter((entry: { action: string }) => entry.action === 'export');
      expect(exports.length).toBe(first.audit_log.length + 1);
      expect(exports.at(-1)).toEqual({
        id: expect.any(String),
        at: expect.any(String),
        action: 'export',
        actor: expect.stringMatching(/^token:/),
      });
    } finally {
      await receiver.close();
      await own.close();
    }
  });

  it("is 404 for another distribution's person and 410 once erased; the export is read-only", async () => {
    const person = await pushRichPerson(server, tenant);
    expect((await callApi(server, other, 'GET', `${d(other)}/parties/${person.partyId}/export`)).status).toBe(404);
    expect((await callApi(server, other, 'GET', `${d()}/parties/${person.partyId}/export`)).status).toBe(403);
    const before = await callApi(server, tenant, 'GET', `${d()}/parties/${person.partyId}`);
    expect((await callApi(server, tenant, 'GET', `${d()}/parties/${person.partyId}/export`)).status).toBe(200);
    expect((await callApi(server, tenant, 'GET', `${d()}/parties/${person.partyId}`)).body).toEqual(before.body);
    expect((await callApi(server, tenant, 'DELETE', `${d()}/parties/${person.partyId}`)).status).toBe(200);
    const gone = await callApi(server, tenant, 'GET', `${d()}/parties/${person.partyId}/export`);
    expect(gone.status).toBe(410);
    expect(gone.body.detail.type).toBe('Erased');
  });
});

describe('the CLI and the audit log', () => {
  it('exports and erases with `party export|erase`, and `audit list` shows who did what to which party id', async () => {
    const person = await pushRichPerson(server, tenant);
    // The webhook worker records its attempts meanwhile: the two exports compare once the
    // person's deliveries are all done (their callback refuses at once).
    await eventually(
      async () => {
        const pending = await server.database.handle.db
          .selectFrom('webhook_deliveries')
          .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('webhook_events.lead_id', '=', person.leadId)
          .where('webhook_deliveries.status', '=', 'pending')
          .executeTakeFirst();
        return Number(pending?.n) === 0;
      },
      20_000,
      "the person's webhook deliveries",
    );
    const byApi = await callApi(server, tenant, 'GET', `${d()}/parties/${person.partyId}/export`);
    const exported = await cliJson(env(), [
      'party',
      'export',
      '--distribution',
      tenant.distributionId,
      '--party',
      person.partyId,
    ]);
    const { audit_log: cliAudit, ...cliRecords } = exported.records;
    const { audit_log: apiAudit, ...apiRecords } = byApi.body.records;
    expect(cliRecords).toEqual(apiRecords);
    // Each export shows the ones before it and itself.
    expect(cliAudit).toEqual([...apiAudit, expect.objectContaining({ action: 'export', actor: 'cli' })]);
    // The links in the lead come from the process's PUBLIC_URL, which the CLI here lacks.
    expect(exported.lead.prospect).toEqual(byApi.body.lead.prospect);

    // Not at a terminal and without --yes: a bad command line (exit 2) that says why, nothing erased.
    const unconfirmed = await runCli(env(), [
      'party',
      'erase',
      '--distribution',
      tenant.distributionId,
      '--party',
      person.partyId,
    ]);
    expect(unconfirmed).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'lead-intake party erase: erasing cannot be undone: add --yes to confirm (stdin is not a terminal, so there is nobody to ask) (see lead-intake party erase --help)\n',
    });
    expect((await callApi(server, tenant, 'GET', `${d()}/parties/${person.partyId}`)).status).toBe(200);
    const receipt = await cliJson(env(), [
      'party',
      'erase',
      '--distribution',
      tenant.distributionId,
      '--party',
      person.partyId,
      '--yes',
    ]);
    expect(receipt).toMatchObject({ party_id: person.partyId, lead_ids: [person.leadId], counts: { parties: 1 } });
    expect(await tablesContaining(server.database.handle, person.marker)).toEqual([]);
    expect((await callApi(server, tenant, 'GET', `${d()}/parties/${person.partyId}`)).status).toBe(410);

    const again = await runCli(env(), [
      'party',
      'erase',
      '--distribution',
      tenant.distributionId,
      '--party',
      person.partyId,
      '--yes',
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('was erased already');
    const missing = await runCli(env(), [
      'party',
      'export',
      '--distribution',
      other.distributionId,
      '--party',
      person.partyId,
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no party');
    expect((await runCli(env(), ['party', 'erase', '--party', person.partyId])).code).toBe(2);

    const audit = await cliJson<any[]>(env(), ['audit', 'list', '--distribution', tenant.distributionId]);
    const about = audit.filter((entry) => entry.party_id === person.partyId);
    expect(about.map((entry) => [entry.action, entry.actor, entry.username])).toEqual([
      ['erase', 'cli', null],
      ['export', 'cli', null],
      ['export', expect.stringMatching(/^token:/), null],
    ]);
    expect(JSON.stringify(audit)).not.toContain(person.marker);
  });

  it('asks at a terminal before `party erase`: any answer but yes erases nothing (exit 1), yes erases', async () => {
    const person = await pushRichPerson(server, tenant);
    const args = ['party', 'erase', '--distribution', tenant.distributionId, '--party', person.partyId];
    /** The command at a terminal: stdin is a TTY on which `answer` is typed. */
    const atTerminal = async (answer: string) => {
      let stdout = '';
      let stderr = '';
      const code = await main(args, {
        env: childEnv(env()),
        stdin: Object.assign(Readable.from([Buffer.from(answer)]), { isTTY: true }),
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text) },
      });
      return { code, stdout, stderr };
    };
    const declined = await atTerminal('no\n');
    expect(declined.code).toBe(1);
    expect(declined.stdout).toBe('');
    expect(declined.stderr).toContain('This cannot be undone. Type yes to erase: ');
    expect(declined.stderr).toContain(`lead-intake party: not confirmed: party ${person.partyId} was not erased\n`);
    expect((await callApi(server, tenant, 'GET', `${d()}/parties/${person.partyId}`)).status).toBe(200);

    const confirmed = await atTerminal('yes\n');
    expect(confirmed.code).toBe(0);
    expect(JSON.parse(confirmed.stdout)).toMatchObject({ party_id: person.partyId, counts: { parties: 1 } });
    expect((await callApi(server, tenant, 'GET', `${d()}/parties/${person.partyId}`)).status).toBe(410);
  });

  it('records an erasure through the API with its token, and no refused request', async () => {
    const marker = uniqueMarker();
    const pushed = await pushLead(server, tenant, 'customers', { prospect: { first_name: marker, last_name: 'X' } });
    const reader = await createTenant(server.database.handle, ['parties:read']);
    expect(
      (
        await callApi(
          server,
          reader,
          'DELETE',
          `/distributions/${reader.distributionId}/parties/${pushed.body.party_id}`,
        )
      ).status,
    ).toBe(403);
    expect((await callApi(server, tenant, 'DELETE', `${d()}/parties/${pushed.body.party_id}`)).status).toBe(200);
    const audit = await cliJson<any[]>(env(), ['audit', 'list']);
    expect(audit.filter((entry) => entry.party_id === pushed.body.party_id)).toEqual([
      expect.objectContaining({
        action: 'erase',
        distribution_id: tenant.distributionId,
        actor: expect.stringMatching(/^token:/),
      }),
    ]);
  });
});
