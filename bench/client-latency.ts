// The load side of BENCH_ONLY=client (bench/client.ts): the same push, new lead each time,
// sent by plain fetch and by the TypeScript client (clients/typescript), alternating
// request by request. Each request is timed from the call to its parsed answer; one at a
// time, this process's CPU time per request is counted per way of sending. Prints one
// JSON line.
//   node bench/client-latency.ts '<ClientLatencySpec as JSON>'
import { randomUUID } from 'node:crypto';
import { createLeadIntakeClient } from '../clients/typescript/src/index.ts';

export interface ClientLatencySpec {
  readonly url: string;
  readonly token: string;
  readonly distributionId: string;
  /** Measured pushes per way of sending. */
  readonly requests: number;
  readonly concurrency: number;
  /** Unmeasured pushes per way first. */
  readonly warmup: number;
}

export interface Timings {
  readonly requests: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  /** CPU time of this process (user + system) per request, in microseconds; measured one at a time only. */
  readonly cpuMicrosPerRequest: number | null;
}

export interface ClientLatencyResult {
  readonly fetch: Timings;
  readonly client: Timings;
}

type Send = (lastName: string) => Promise<void>;

async function main(spec: ClientLatencySpec): Promise<ClientLatencyResult> {
  const client = createLeadIntakeClient({ baseUrl: spec.url, token: spec.token, distributionId: spec.distributionId });
  const pushUrl = `${spec.url}/v1/api/distributions/${spec.distributionId}/leads/customers`;
  const body = (lastName: string) => ({ origin: 'bench-client', prospect: { first_name: 'Jan', last_name: lastName } });
  const byFetch: Send = async (lastName) => {
    // The same request the client sends: JSON body, token, an Idempotency-Key.
    const response = await fetch(pushUrl, {
      method: 'POST',
      headers: {
        authorization: `apikey ${spec.token}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify(body(lastName)),
    });
    const answer = (await response.json()) as { id?: string };
    if (response.status !== 201 || !answer.id) throw new Error(`plain fetch: ${response.status}`);
  };
  const byClient: Send = async (lastName) => {
    const { data, response } = await client.pushCustomerLead(body(lastName));
    if (response.status !== 201 || !data?.id) throw new Error(`client: ${response.status}`);
  };

  const samples = { fetch: [] as number[], client: [] as number[] };
  const cpu = { fetch: 0, client: 0 };
  const ways = [
    ['fetch', byFetch],
    ['client', byClient],
  ] as const;
  let n = 0;
  let started = 0;
  const total = (spec.warmup + spec.requests) * 2;
  // Each worker alternates the two ways request by request (starting with the one the
  // other workers do not), so both meet the same server, database size and machine noise.
  await Promise.all(
    Array.from({ length: spec.concurrency }, async (_, worker) => {
      for (let i = worker; started < total; i++) {
        const record = started++ >= spec.warmup * 2;
        const [way, send] = ways[i % 2]!;
        const cpuBefore = process.cpuUsage();
        const at = performance.now();
        await send(`L${n++}`);
        if (!record) continue;
        samples[way].push(performance.now() - at);
        // One at a time, the process's CPU time between the two readings is this request's.
        if (spec.concurrency === 1) {
          const used = process.cpuUsage(cpuBefore);
          cpu[way] += used.user + used.system;
        }
      }
    }),
  );
  return {
    fetch: summarise(samples.fetch, spec.concurrency === 1 ? cpu.fetch : null),
    client: summarise(samples.client, spec.concurrency === 1 ? cpu.client : null),
  };
}

function summarise(samples: number[], cpuMicros: number | null): Timings {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    requests: sorted.length,
    p50Ms: at(0.5),
    p90Ms: at(0.9),
    p99Ms: at(0.99),
    meanMs: sorted.reduce((sum, x) => sum + x, 0) / sorted.length,
    cpuMicrosPerRequest: cpuMicros === null ? null : cpuMicros / sorted.length,
  };
}

if (import.meta.main) {
  process.stdout.write(`${JSON.stringify(await main(JSON.parse(process.argv[2]!) as ClientLatencySpec))}\n`);
}
