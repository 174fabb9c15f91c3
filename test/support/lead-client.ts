// Pushing leads over real HTTP, as a broker platform does.
import type { TestServer, Tenant } from './test-server.ts';
import type { ApiReply } from './api-client.ts';

export async function pushLead(
  server: Pick<TestServer, 'url'>,
  tenant: Tenant,
  kind: 'customers' | 'companies',
  body: unknown,
  headers: Record<string, string> = {},
): Promise<ApiReply> {
  const response = await fetch(`${server.url}/v1/api/distributions/${tenant.distributionId}/leads/${kind}`, {
    method: 'POST',
    headers: { authorization: `apikey ${tenant.token}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** Row counts of the lead tables: proof that a refused push wrote nothing. */
export async function countRows(server: TestServer): Promise<Record<string, number>> {
  const db = server.database.handle.db;
  const tables = [
    'parties',
    'leads',
    'external_refs',
    'risk_objects',
    'risk_object_revisions',
    'policy_packages',
    'insurance_policies',
    'coverages',
    'lead_pushes',
    'party_callbacks',
    'lead_changes',
    'lead_notes',
  ] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}
