// A body over the limit gets the documented 413 (docs/design.md section 3), received by the
// client however it sends: Node's fetch writes the body while the answer arrives, and a
// server that closes the connection on answering resets it under the client, which then
// sees EPIPE instead of the answer. The rest of such a body is read and thrown away,
// within bounds (docs/design.md section 8): at most DISCARD_LIMIT_BYTES, and no longer
// than REQUEST_TIMEOUT from the request's start.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCARD_LIMIT_BYTES } from '../src/http/protocol/unread-body.ts';
import { createTenant, createTestDatabase, type Tenant, type TestDatabase } from './support/test-server.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';

const BODY_LIMIT = 64 * 1024;
/** Well over the limit, and more than loopback's socket buffers hold, so the client still writes when the 413 comes. */
const OVERSIZED = 4 * 1024 * 1024;
const CLIENTS = 30;

// Server processes of their own: in the test's process, the server would read only while the
// client waits, and the race a real client meets would not happen. One with the default
// REQUEST_TIMEOUT, so that only the byte bound ends a discard however slow the machine, and
// one with a short REQUEST_TIMEOUT for the clients that trickle.
let database: TestDatabase;
let server: ServerProcess;
let impatient: ServerProcess;
let tenant: Tenant;
beforeAll(async () => {
  database = await createTestDatabase();
  tenant = await createTenant(database.handle);
  [server, impatient] = await Promise.all([
    startServerProcess({ ...database.env, BODY_LIMIT: String(BODY_LIMIT) }),
    startServerProcess({ ...database.env, BODY_LIMIT: String(BODY_LIMIT), REQUEST_TIMEOUT: '2s' }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), impatient?.stop()]);
  await database?.drop();
});

const pushPath = () => `/v1/api/distributions/${tenant.distributionId}/leads/customers`;
const oversizedLead = () =>
  Buffer.from(JSON.stringify({ prospect: { first_name: 'J'.repeat(OVERSIZED), last_name: 'P' } }));

const payloadTooLarge = {
  detail: {
    type: 'PayloadTooLarge',
    errors: [
      {
        type: 'PayloadTooLarge',
        target: '',
        message: `The request body exceeds the maximum size. (${BODY_LIMIT} bytes)`,
      },
    ],
    error_str: `1 error for Request\n(request)\n  The request body exceeds the maximum size. (${BODY_LIMIT} bytes)`,
  },
};

/** What a fetch of an oversized push ended with: the answer, or the network error's code. */
async function pushOversized(body: Buffer | ReadableStream<Uint8Array>): Promise<unknown> {
  try {
    const response = await fetch(`${server.url}${pushPath()}`, {
      method: 'POST',
      headers: { authorization: `apikey ${tenant.token}`, 'content-type': 'application/json' },
      body,
      ...(body instanceof ReadableStream && { duplex: 'half' }),
    } as RequestInit);
    return {
      status: response.status,
      requestId: /^[0-9a-f-]{36}$/.test(response.headers.get('x-request-id') ?? ''),
      body: await response.json(),
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return `network error: ${cause?.code ?? cause?.message ?? String(error)}`;
  }
}

/** The body in 64 KiB chunks, without Content-Length (Transfer-Encoding: chunked). */
function chunked(bytes: Buffer): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 65_536));
      offset += 65_536;
    },
  });
}

/** The status lines in the bytes a raw client received: one per answer. */
const statusesIn = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]));

const answered413 = { status: 413, requestId: true, body: payloadTooLarge };

describe('413 reaches a client that is still sending', () => {
  it(`${CLIENTS} bodies with Content-Length over the limit, at once: every one gets the 413`, async () => {
    const body = oversizedLead();
    const outcomes = await Promise.all(Array.from({ length: CLIENTS }, () => pushOversized(body)));
    expect(outcomes).toEqual(Array.from({ length: CLIENTS }, () => answered413));
  });

  it(`${CLIENTS} chunked bodies that pass the limit on the way, at once: every one gets the 413`, async () => {
    const body = oversizedLead();
    const outcomes = await Promise.all(Array.from({ length: CLIENTS }, () => pushOversized(chunked(body))));
    expect(outcomes).toEqual(Array.from({ length: CLIENTS }, () => answered413));
  });

  it(`${CLIENTS} clients that say Connection: close and write their whole body before reading: every one gets the 413`, async () => {
    // As Python's urllib sends: the connection closes after the answer, so the server
    // closes in stages and reads the rest first.
    const { hostname, port } = new URL(server.url);
    const body = oversizedLead();
    const head =
      `POST ${pushPath()} HTTP/1.1\r\nHost: x\r\nAuthorization: apikey ${tenant.token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const writeThenRead = () =>
      new Promise<number[]>((resolve) => {
        const socket = net.connect(Number(port), hostname);
        const chunks: Buffer[] = [];
        socket.pause();
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('error', () => {});
        socket.on('close', () => resolve(statusesIn(Buffer.concat(chunks).toString('latin1'))));
        socket.write(head);
        socket.write(body, () => socket.resume());
      });
    const outcomes = await Promise.all(Array.from({ length: CLIENTS }, writeThenRead));
    expect(outcomes).toEqual(Array.from({ length: CLIENTS }, () => [413]));
  });

  it('the connection serves the next request once the refused body has been read', async () => {
    const { hostname, port } = new URL(server.url);
    const refused = Buffer.alloc(BODY_LIMIT * 2, 'x');
    const lead = JSON.stringify({ prospect: { first_name: 'Jan', last_name: 'Peeters' } });
    const head = (length: number, last: boolean) =>
      `POST ${pushPath()} HTTP/1.1\r\nHost: x\r\nAuthorization: apikey ${tenant.token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${length}\r\n${last ? 'Connection: close\r\n' : ''}\r\n`;
    const text = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname);
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(received));
      socket.write(
        Buffer.concat([Buffer.from(head(refused.length, false)), refused, Buffer.from(head(lead.length, true) + lead)]),
      );
    });
    expect(statusesIn(text)).toEqual([413, 201]);
  });
});

/** Sends `head` and then a space every 100 ms, never stopping; returns what came back once the server closed. */
function trickle(head: string): Promise<string> {
  const { hostname, port } = new URL(impatient.url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let text = '';
    socket.on('data', (data) => {
      text += data.toString('latin1');
    });
    socket.on('error', () => {});
    const timer = setInterval(() => socket.write(' '), 100);
    socket.on('close', () => {
      clearInterval(timer);
      resolve(text);
    });
    socket.write(head);
  });
}

describe('the rest of a refused body is read within bounds', () => {
  /**
   * Declares a body far over the limit and sends it as fast as the server takes it, never
   * reading; returns the bytes the server accepted before closing and what it answered.
   */
  function flood(): Promise<{ written: number; answer: string }> {
    const { hostname, port } = new URL(server.url);
    return new Promise((resolve) => {
      const socket = net.connect(Number(port), hostname);
      const chunk = Buffer.alloc(256 * 1024, ' ');
      let written = 0;
      let answer = '';
      socket.on('data', (data) => {
        answer += data.toString('latin1');
      });
      socket.on('error', () => {});
      socket.on('close', () => resolve({ written, answer }));
      socket.on('connect', () => {
        socket.write(
          `POST ${pushPath()} HTTP/1.1\r\nHost: x\r\nAuthorization: apikey ${tenant.token}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024 * 1024}\r\n\r\n{`,
        );
        const write = () => {
          while (!socket.destroyed && socket.write(chunk)) written += chunk.length;
          if (!socket.destroyed) written += chunk.length;
        };
        socket.on('drain', write);
        write();
      });
    });
  }

  it('a client that never stops sending is cut off once DISCARD_LIMIT_BYTES have been thrown away', async () => {
    const { written, answer } = await flood();
    expect(statusesIn(answer)).toEqual([413]);
    expect(written).toBeGreaterThan(DISCARD_LIMIT_BYTES);
    // What the socket buffers on both sides held when the server closed, on top of the limit.
    expect(written).toBeLessThan(DISCARD_LIMIT_BYTES + 32 * 1024 * 1024);
  });

  it('a client that trickles the rest is cut off after REQUEST_TIMEOUT, with no second answer', async () => {
    const received = await trickle(
      `POST ${pushPath()} HTTP/1.1\r\nHost: x\r\nAuthorization: apikey ${tenant.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${BODY_LIMIT * 2}\r\n\r\n{`,
    );
    expect(statusesIn(received)).toEqual([413]);
  });

  it('a request refused on its head (401) and trickling its body gets that one answer, then the close', async () => {
    const received = await trickle(
      `POST ${pushPath()} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    );
    expect(statusesIn(received)).toEqual([401]);
  });
});
