// The HTTP attempt against real receivers on loopback: what a receiver can and cannot make
// a worker do.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AddressGuard } from './address-guard.ts';
import { WebhookSender, parseRetryAfter } from './webhook.sender.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function receiver(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const lenient = () => new WebhookSender({ guard: new AddressGuard({ allowPrivateNetworks: true }), timeoutMs: 500 });

describe('WebhookSender', () => {
  it('posts the body with the given headers and reports a 2xx', async () => {
    let seen: { headers: http.IncomingHttpHeaders; body: string; url: string } | undefined;
    const url = await receiver((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        seen = { headers: request.headers, body, url: request.url! };
        response.writeHead(204).end();
      });
    });
    const sender = lenient();
    const result = await sender.send(`${url}/hooks?x=1`, { 'webhook-id': 'abc' }, '{"a":"é"}');
    sender.close();
    expect(result).toMatchObject({ statusCode: 204, error: null, refused: false });
    expect(seen).toMatchObject({ url: '/hooks?x=1', body: '{"a":"é"}' });
    expect(seen!.headers).toMatchObject({ 'webhook-id': 'abc', 'content-type': 'application/json' });
  });

  it('does not follow a redirect: the 3xx is the result', async () => {
    let followed = false;
    const url = await receiver((request, response) => {
      if (request.url === '/elsewhere') followed = true;
      response.writeHead(302, { location: '/elsewhere' }).end();
    });
    const sender = lenient();
    const result = await sender.send(`${url}/hook`, {}, '{}');
    sender.close();
    expect(result.statusCode).toBe(302);
    expect(result.error).toMatch(/^HTTP 302/);
    expect(followed).toBe(false);
  });

  it('gives up after the timeout when the receiver never answers', async () => {
    const url = await receiver(() => {
      /* never answers */
    });
    const sender = lenient();
    const result = await sender.send(url, {}, '{}');
    sender.close();
    expect(result).toMatchObject({ statusCode: null, error: 'no answer within 0.5 s' });
  });

  it('reads at most 64 KiB of an endless answer', async () => {
    let written = 0;
    const url = await receiver((_request, response) => {
      response.writeHead(500);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        // Stops when the client hangs up; without the cap this would run until the timeout.
        while (!response.destroyed && written < 64 * 1024 * 1024 && response.write(chunk)) written += chunk.length;
        if (!response.destroyed && written < 64 * 1024 * 1024) response.once('drain', pump);
      };
      pump();
    });
    // The sender's own timeout, not the short one of the tests about timeouts: the cap, not
    // a deadline, must end this read, however slowly a busy machine runs the pump.
    const sender = new WebhookSender({ guard: new AddressGuard({ allowPrivateNetworks: true }) });
    const result = await sender.send(url, {}, '{}');
    sender.close();
    expect(result.statusCode).toBe(500);
    expect(result.error).toMatch(/^HTTP 500: x{10}/);
    expect(result.error!.length).toBeLessThan(300);
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it('refuses a loopback receiver by default and sends nothing', async () => {
    let called = false;
    const url = await receiver((_request, response) => {
      called = true;
      response.end();
    });
    const sender = new WebhookSender({ guard: new AddressGuard({ allowPrivateNetworks: false }) });
    const result = await sender.send(url, {}, '{}');
    sender.close();
    expect(result).toMatchObject({
      refused: true,
      statusCode: null,
      error: expect.stringMatching(/^refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback address/),
    });
    expect(called).toBe(false);
  });

  it('reports a receiver that is down', async () => {
    const url = await receiver(() => {});
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const sender = lenient();
    const result = await sender.send(url, {}, '{}');
    sender.close();
    expect(result).toMatchObject({ statusCode: null, refused: false, error: expect.stringMatching(/ECONNREFUSED/) });
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('2015-10-21T07:28:00Z'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(undefined)).toBeNull();
  });
});
