// Calling any API route over real HTTP with a tenant's token (or any other credentials).
import type { TestServer, Tenant } from './test-server.ts';

export interface ApiReply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
}

/** `credentials`: a tenant, whose API token is sent, or the whole Authorization header. */
export async function callApi(
  server: Pick<TestServer, 'url'>,
  credentials: Pick<Tenant, 'token'> | string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiReply> {
  const response = await fetch(`${server.url}/v1/api${path}`, {
    method,
    headers: {
      authorization: typeof credentials === 'string' ? credentials : `apikey ${credentials.token}`,
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
