// The soak's load generator: a process of its own (pinned to the load core like load.ts)
// sending `requests` mixed requests (soak-requests.ts) over `connections` connections.
// Prints `{"done": n}` lines as it goes, so the runner can tell warm-up from the rest,
// and one SoakLoadResult as the last line.
import { readReferenceWords, SoakRequests, type SoakTenant } from './soak-requests.ts';

export interface SoakLoadSpec {
  readonly url: string;
  readonly tenants: readonly SoakTenant[];
  /** Where a share of the pushed leads' callbacks point (a receiver that answers 204). */
  readonly callbackUrl: string;
  /** The server's PUBLIC_URL. */
  readonly publicUrl: string;
  readonly samples: string;
  readonly bodyLimit: number;
  readonly requests: number;
  readonly connections: number;
  /** A progress line every this many answers. */
  readonly every: number;
}

export interface SoakLoadResult {
  readonly requests: number;
  readonly seconds: number;
  /** Answers per kind of request and status, such as `{"lead": {"200": 9980}}`. */
  readonly statuses: Record<string, Record<string, number>>;
  /** Requests that got no answer at all (a reset, a timeout). */
  readonly networkErrors: number;
  readonly firstServerError: string | null;
  /** The first answer of each kind and status, its start: what a refusal said. */
  readonly examples: Record<string, string>;
}

async function run(spec: SoakLoadSpec): Promise<SoakLoadResult> {
  const requests = new SoakRequests({
    tenants: spec.tenants,
    callbackUrl: spec.callbackUrl,
    publicUrl: spec.publicUrl,
    words: readReferenceWords(spec.samples),
    bodyLimit: spec.bodyLimit,
  });
  const statuses: Record<string, Record<string, number>> = {};
  let networkErrors = 0;
  let firstServerError: string | null = null;
  const examples: Record<string, string> = {};
  let sent = 0;
  let done = 0;
  const started = performance.now();
  const one = async () => {
    sent++;
    const request = requests.next();
    let status = 'network error';
    try {
      // Node's fetch keeps its connections alive: `connections` workers, as many connections.
      const response = await fetch(spec.url + request.path, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        // A redirect is an answer: the soak counts it, as a browser's first request would.
        redirect: 'manual',
      });
      const text = await response.text();
      status = String(response.status);
      requests.answered(request, response.status, text);
      examples[`${request.kind} ${status}`] ??=
        `${request.method} ${request.path.slice(0, 120)}: ${text.slice(0, 300)}`;
      if (response.status >= 500 && firstServerError === null)
        firstServerError = `${request.method} ${request.path}: ${response.status} ${text.slice(0, 300)}`;
    } catch {
      networkErrors++;
    }
    const byStatus = statuses[request.kind] ?? {};
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    statuses[request.kind] = byStatus;
    if (++done % spec.every === 0) process.stdout.write(`${JSON.stringify({ done })}\n`);
  };
  // The first requests one at a time: pushes, so that reads have leads to name.
  while (sent < Math.min(20, spec.requests)) await one();
  const worker = async () => {
    while (sent < spec.requests) await one();
  };
  await Promise.all(Array.from({ length: spec.connections }, worker));
  return {
    requests: done,
    seconds: (performance.now() - started) / 1000,
    statuses,
    networkErrors,
    firstServerError,
    examples,
  };
}

if (import.meta.main) {
  const spec = JSON.parse(process.argv[2] ?? '') as SoakLoadSpec;
  process.stdout.write(`${JSON.stringify(await run(spec))}\n`);
}
