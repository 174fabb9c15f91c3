// A real webhook receiver on loopback: records every request (headers and the raw body,
// which is what signatures cover) and answers as the test scripts it, path by path.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly json: any;
}

export interface ScriptedAnswer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  /** Answer only after this long (the request is recorded on arrival). */
  readonly delayMs?: number;
}

export interface WebhookReceiver {
  readonly origin: string;
  /** Everything received so far, in arrival order. */
  readonly received: ReceivedWebhook[];
  url(path: string): string;
  /** The next requests to `path` get these answers, in order; after them, 204. */
  script(path: string, ...answers: ScriptedAnswer[]): void;
  /** Resolves with the requests to `path` once there are at least `count` of them. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const scripts = new Map<string, ScriptedAnswer[]>();
  const waiters = new Set<() => void>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = request.url ?? '/';
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      received.push({ path, headers: request.headers as Record<string, string>, body, json });
      const answer = scripts.get(path)?.shift() ?? { status: 204 };
      const reply = () => response.writeHead(answer.status, answer.headers).end();
      if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
      for (const waiter of waiters) waiter();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const to = (path: string) => received.filter((r) => r.path === path);
  return {
    origin,
    received,
    url: (path) => `${origin}${path}`,
    script: (path, ...answers) => scripts.set(path, [...(scripts.get(path) ?? []), ...answers]),
    waitFor(path, count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (to(path).length < count) return;
          cleanup();
          resolve(to(path));
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`${path}: ${to(path).length} of ${count} webhooks within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
