// Issue 11's measurement: how a running server's /healthz answers while twenty clients at
// once keep sending 60 KB bodies of 20,000 empty residences (each refused with a 422).
// Usage: URL=http://127.0.0.1:8080 DISTRIBUTION=<id> TOKEN=<api token> node bench/hostile-bodies.ts
// Prints JSON: /healthz latency percentiles, the 422s answered and their average size.
const base = process.env.URL ?? 'http://127.0.0.1:8080';
const distribution = process.env.DISTRIBUTION!;
const token = process.env.TOKEN!;
const seconds = Number(process.env.SECONDS ?? 10);
const clients = Number(process.env.CLIENTS ?? 20);

const body = JSON.stringify({
  prospect: { first_name: 'A', last_name: 'B', risk_objects: { residences: Array(20_000).fill({}) } },
});
const until = Date.now() + seconds * 1000;
let refused = 0;
let answerBytes = 0;
const statuses: Record<number, number> = {};

async function hostileClient(): Promise<void> {
  while (Date.now() < until) {
    const response = await fetch(`${base}/v1/api/distributions/${distribution}/leads/customers`, {
      method: 'POST',
      headers: { authorization: `apikey ${token}`, 'content-type': 'application/json' },
      body,
    });
    const text = await response.text();
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    refused += 1;
    answerBytes += text.length;
  }
}

async function probeHealth(): Promise<number[]> {
  const latencies: number[] = [];
  while (Date.now() < until) {
    const started = performance.now();
    await (await fetch(`${base}/healthz`)).text();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return latencies;
}

const [latencies] = await Promise.all([probeHealth(), ...Array.from({ length: clients }, hostileClient)]);
const sorted = latencies.sort((a, b) => a - b);
const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;
console.log(
  JSON.stringify({
    body_bytes: body.length,
    clients,
    seconds,
    hostile_requests: refused,
    statuses,
    answer_bytes_avg: Math.round(answerBytes / Math.max(1, refused)),
    healthz: { probes: sorted.length, p50_ms: at(0.5), p99_ms: at(0.99), max_ms: at(1) },
  }),
);
