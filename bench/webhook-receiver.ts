// The webhook receiver of the benchmark: a process of its own that answers every POST
// with 204 at once and notes when each event arrived and when it was created (the event's
// `created_at`), so the run can tell events/s delivered and how far delivery lagged.
// GET /stats?from=<ms>&to=<ms> reports on the arrivals in that window; GET /stats alone
// answers only {"total": <arrivals so far>}.
import http from 'node:http';

const arrivals: number[] = [];
const delays: number[] = [];
// The body starts {"id":"...","type":"...","created_at":"...": no need to parse it all.
const CREATED_AT = /"created_at":"([^"]+)"/;

const server = http.createServer((request, response) => {
  if (request.method === 'GET') {
    const url = new URL(request.url ?? '/', 'http://receiver');
    response.writeHead(200, { 'content-type': 'application/json' });
    // Without a window only the count, answered cheaply: the drain loop polls it often.
    if (!url.searchParams.has('from') && !url.searchParams.has('to')) {
      response.end(JSON.stringify({ total: arrivals.length }));
      return;
    }
    const from = Number(url.searchParams.get('from') ?? 0);
    const to = Number(url.searchParams.get('to') ?? Infinity);
    const window: number[] = [];
    for (let i = 0; i < arrivals.length; i++) if (arrivals[i]! >= from && arrivals[i]! <= to) window.push(delays[i]!);
    window.sort((a, b) => a - b);
    const at = (p: number) =>
      window.length === 0 ? null : window[Math.min(window.length - 1, Math.ceil(p * window.length) - 1)]!;
    response.end(
      JSON.stringify({
        total: arrivals.length,
        inWindow: window.length,
        delayP50Ms: at(0.5),
        delayP99Ms: at(0.99),
        delayMaxMs: at(1),
      }),
    );
    return;
  }
  let head = '';
  request.on('data', (chunk: Buffer) => {
    if (head.length < 300) head += chunk.toString('utf8', 0, 300);
  });
  request.on('end', () => {
    const now = Date.now();
    const created = Date.parse(CREATED_AT.exec(head)?.[1] ?? '');
    arrivals.push(now);
    delays.push(Number.isNaN(created) ? NaN : now - created);
    response.writeHead(204).end();
  });
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
