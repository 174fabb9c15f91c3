// A real HTTP hop on loopback in front of a server, as a load balancer during a deploy:
// each request is answered as the test scripts it (a status of its own, or a dropped
// connection) or else forwarded to the server as it is. It records every request it saw.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyAnswer = { readonly status: number; readonly headers?: Record<string, string> } | 'drop';

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  /** What the proxy did: its scripted answer, or the server's status. */
  answered: number | 'drop';
}

export interface FlakyProxy {
  readonly url: string;
  readonly seen: SeenRequest[];
  /** The next requests get these answers, in order; after them, requests are forwarded. */
  script(...answers: ProxyAnswer[]): void;
  close(): Promise<void>;
}

export async function startFlakyProxy(target: string): Promise<FlakyProxy> {
  const seen: SeenRequest[] = [];
  const answers: ProxyAnswer[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const entry: SeenRequest = {
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        headers: request.headers,
        answered: 0,
      };
      seen.push(entry);
      const answer = answers.shift();
      if (answer === 'drop') {
        entry.answered = 'drop';
        request.socket.destroy();
        return;
      }
      if (answer) {
        entry.answered = answer.status;
        response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        response.end('{"detail":{"type":"ServiceUnavailable","errors":[],"error_str":"scripted"}}');
        return;
      }
      const headers = { ...request.headers } as Record<string, string>;
      delete headers.host;
      delete headers.connection;
      const forwarded = await fetch(`${target}${entry.path}`, {
        method: entry.method,
        headers,
        ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
      });
      entry.answered = forwarded.status;
      const body = Buffer.from(await forwarded.arrayBuffer());
      const out: Record<string, string> = {};
      forwarded.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection') out[name] = value;
      });
      response.writeHead(forwarded.status, out).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    script: (...next) => {
      answers.push(...next);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
