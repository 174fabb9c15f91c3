// Calling any API route over real HTTP with a tenant's token.
import type { TestServer, Tenant } from './test-server.ts';

export interface ApiReply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
}

export async function callApi(
  server: TestServer,
  tenant: Pick<Tenant, 'token'>,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiReply> {
  const response = await fetch(`${server.url}/v1/api${path}`, {
    method,
    headers: {
      authorization: `apikey ${tenant.token}`,
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
