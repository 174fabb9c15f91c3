// Errors raised below the router (docs/design.md section 8): whatever bytes a client sends, the
// answer is the documented body with an x-request-id, never Fastify's or Node's own; and a
// client that trickles or stalls is cut off after REQUEST_TIMEOUT.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { parseAnswer, rawRequest, type ParsedAnswer } from './support/raw-http.ts';

let server: TestServer;
let tenant: Tenant;
beforeAll(async () => {
  server = await startTestServer({ REQUEST_TIMEOUT: '1s' });
  tenant = await createTenant(server.database.handle);
});
afterAll(async () => server?.close());

function expectDocumentedError(answer: ParsedAnswer, status: number, type: string, target = ''): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.json).toEqual({
    detail: {
      type,
      errors: [{ type, target, message: expect.any(String) }],
      error_str: expect.stringMatching(/^1 error for Request\n/),
    },
  });
}

describe('bytes that are not HTTP/1.1', () => {
  it('oversized headers: 431', async () => {
    const answer = await rawRequest(server.url, [
      'GET /healthz HTTP/1.1',
      'Host: x',
      `X-Big: ${'a'.repeat(20_000)}`,
      'Connection: close',
    ]);
    expectDocumentedError(answer, 431, 'HeaderFieldsTooLarge');
  });

  it.each([
    [
      'Content-Length with Transfer-Encoding',
      ['POST /healthz HTTP/1.1', 'Host: x', 'Content-Length: 5', 'Transfer-Encoding: chunked'],
      '0\r\n\r\n',
    ],
    ['a header line without a colon', ['GET /healthz HTTP/1.1', 'Host: x', 'this is not a header'], ''],
    ['a method the parser does not know', ['FETCH /healthz HTTP/1.1', 'Host: x'], ''],
    [
      'a chunk size that is not hexadecimal',
      ['POST /healthz HTTP/1.1', 'Host: x', 'Transfer-Encoding: chunked'],
      'zz\r\nabc\r\n0\r\n\r\n',
    ],
    [
      'two Content-Length values',
      ['POST /healthz HTTP/1.1', 'Host: x', 'Content-Length: 1', 'Content-Length: 2'],
      'ab',
    ],
    ['a space before the colon', ['GET /healthz HTTP/1.1', 'Host : x'], ''],
  ])('%s: 400 BadRequest', async (_name, head, body) => {
    expectDocumentedError(await rawRequest(server.url, head, body), 400, 'BadRequest');
  });

  it('a method HTTP knows but no route has: the documented 404', async () => {
    const answer = await rawRequest(server.url, ['PROPFIND /healthz HTTP/1.1', 'Host: x', 'Connection: close']);
    expect(answer.status).toBe(404);
    expect(answer.json.detail.type).toBe('NotFound');
  });
});

describe('slow clients', () => {
  it('a body trickled a byte at a time is cut off with 408 after REQUEST_TIMEOUT', async () => {
    const path = `/v1/api/distributions/${tenant.distributionId}/leads/customers`;
    const answer = await rawRequest(
      server.url,
      [
        `POST ${path} HTTP/1.1`,
        'Host: x',
        `Authorization: apikey ${tenant.token}`,
        'Content-Type: application/json',
        'Content-Length: 200',
      ],
      '{',
      { trickle: Array.from({ length: 100 }, () => ' '), intervalMs: 100, timeoutMs: 8_000 },
    );
    expectDocumentedError(answer, 408, 'RequestTimeout');
    // Cut off by the server (REQUEST_TIMEOUT, 1 s), while the client still had most of its
    // 10 s trickle to send and before its own 8 s deadline.
    expect(answer.closedByServer).toBe(true);
    expect(answer.unsentChunks).toBeGreaterThan(0);
  });

  it('a connection that stops in the middle of its headers is answered 408 and closed', async () => {
    const answer = await rawRequest(server.url, ['GET /healthz HTTP/1.1', 'Host: x'], '', {
      unterminated: true,
      timeoutMs: 8_000,
    });
    expectDocumentedError(answer, 408, 'RequestTimeout');
    expect(answer.closedByServer).toBe(true);
  });
});

describe('headers on every answer', () => {
  it('API answers, success and error alike, are nosniff and no-store', async () => {
    const ok = await fetch(`${server.url}/v1/api/distributions/${tenant.distributionId}/leads?limit=1`, {
      headers: { authorization: `apikey ${tenant.token}` },
    });
    const refused = await fetch(`${server.url}/v1/api/distributions/${tenant.distributionId}/leads`);
    for (const response of [ok, refused]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
    expect([ok.status, refused.status]).toEqual([200, 401]);
  });

  it('a URL that cannot be decoded, and the SSO provider, answer nosniff too', async () => {
    const undecodable = await fetch(`${server.url}/v1/api/%zz`);
    expect(undecodable.status).toBe(404);
    expect(undecodable.headers.get('x-content-type-options')).toBe('nosniff');
    expect(undecodable.headers.get('cache-control')).toBe('no-store');
    const discovery = await fetch(`${server.url}/sso/.well-known/openid-configuration`);
    expect(discovery.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keeps a caller X-Request-Id that looks like one, replaces one that does not', async () => {
    const kept = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'trace-42.abc' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-42.abc');
    const replaced = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'x'.repeat(500) } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('idle connections', () => {
  it('a connection that sends nothing is closed after the headers timeout', async () => {
    const answer = await rawRequest(server.url, [], '', { unterminated: true, timeoutMs: 8_000 });
    // Closed by the server, not by the client giving up after 8 s.
    expect(answer.closedByServer).toBe(true);
  });
});

describe('requests Node would answer itself', () => {
  const push = () => `/v1/api/distributions/${tenant.distributionId}/leads/customers`;
  const lead = JSON.stringify({ prospect: { first_name: 'Jan', last_name: 'Peeters' } });

  it('an Expect other than 100-continue: 417 ExpectationFailed on Expect, in the language asked for', async () => {
    const answer = await rawRequest(
      server.url,
      [
        `POST ${push()} HTTP/1.1`,
        'Host: x',
        `Authorization: apikey ${tenant.token}`,
        'Content-Type: application/json',
        `Content-Length: ${lead.length}`,
        'Expect: bogus',
        'Accept-Language: nl',
        'Connection: close',
      ],
      lead,
    );
    expectDocumentedError(answer, 417, 'ExpectationFailed', 'Expect');
    expect(answer.json.detail.errors[0].message).toBe(
      'Aan de verwachting in de Expect-header kan niet voldaan worden: enkel 100-continue wordt ondersteund.',
    );
  });

  /** A push sent the way node:http sends `Expect: 100-continue`: the body only after 100 Continue. */
  function pushExpectingContinue(options: { token?: string; length?: number; path?: string } = {}) {
    const { hostname, port } = new URL(server.url);
    return new Promise<{ continued: boolean; status: number; type?: string }>((resolve, reject) => {
      let continued = false;
      const request = http.request({
        host: hostname,
        port,
        method: 'POST',
        path: options.path ?? push(),
        headers: {
          authorization: `apikey ${options.token ?? tenant.token}`,
          'content-type': 'application/json',
          'content-length': options.length ?? Buffer.byteLength(lead),
          expect: '100-continue',
          connection: 'close',
        },
      });
      request.on('continue', () => {
        continued = true;
        request.end(lead);
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ continued, status: response.statusCode!, type: text ? JSON.parse(text).detail?.type : undefined });
          request.destroy();
        });
      });
      request.on('error', (error) => (continued ? reject(error) : undefined));
    });
  }

  it('Expect: 100-continue: the client is told to go on, and the push is taken', async () => {
    expect(await pushExpectingContinue()).toEqual({ continued: true, status: 201, type: undefined });
  });

  it('Expect: 100-continue on a request refused anyway: the refusal is the answer, the body is never asked for', async () => {
    // Over the body limit (BODY_LIMIT, 1 MiB in tests): 413 without the body being sent.
    expect(await pushExpectingContinue({ length: 50 * 1024 * 1024 })).toEqual({
      continued: false,
      status: 413,
      type: 'PayloadTooLarge',
    });
    // Credentials refused: no body is needed to say so.
    expect(await pushExpectingContinue({ token: 'li_wrong' })).toEqual({
      continued: false,
      status: 401,
      type: 'Unauthenticated',
    });
  });

  it.each([
    ['no Host in HTTP/1.1', ['GET /healthz HTTP/1.1', 'Connection: close']],
    ['two Host lines', ['GET /healthz HTTP/1.1', 'Host: x', 'Host: y', 'Connection: close']],
  ])('%s: 400 BadRequest on Host', async (_name, head) => {
    expectDocumentedError(await rawRequest(server.url, head), 400, 'BadRequest', 'Host');
  });

  it('CONNECT: the documented 404, as for any method no route has', async () => {
    const answer = await rawRequest(server.url, ['CONNECT example.com:443 HTTP/1.1', 'Host: example.com:443']);
    expectDocumentedError(answer, 404, 'NotFound');
  });
});

describe('a request on an open connection while the server stops', () => {
  it('is answered 503 ServiceUnavailable in the documented body, with Retry-After for a client to send it again', async () => {
    const stopping = await startTestServer();
    const { hostname, port } = new URL(stopping.url);
    const socket = net.connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.on('connect', resolve));
    // A request answered (404: no POST route) while its body is still to come keeps the
    // connection busy, so closing the server does not close it as idle.
    socket.write('POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{');
    await eventually(async () => (received.includes('404 Not Found') ? true : undefined), 10_000, 'the 404');
    const closing = stopping.close();
    await eventually(
      async () => (stopping.app.server.listening ? undefined : true),
      10_000,
      'the server to stop listening',
    );
    socket.write('}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await closed;
    await closing;
    const answer = parseAnswer(received.slice(received.indexOf('HTTP/1.1', 1)));
    expectDocumentedError(answer, 503, 'ServiceUnavailable');
    expect(answer.headers['retry-after']).toBe('1');
  });
});
