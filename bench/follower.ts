// A partner that keeps in sync (docs/api.md, "Reading and updating") while others push: 8 pushers
// at full speed and one follower reading the change listing 100 leads a page, following
// `next` to the end and then asking again from the newest `updated_at` it saw. A process
// of its own (bench/scaling.ts starts it on the generator's core). For every lead a pusher
// created, the delay from the push's answer to the follower's first sight of it; and the
// leads it never saw. Reads a FollowerSpec as JSON from argv[2]; prints a FollowerResult.
export interface FollowerSpec {
  readonly url: string;
  readonly distributionId: string;
  readonly token: string;
  readonly pushers: number;
  readonly seconds: number;
  /** Leads pushed before the follower starts, from the beginning of time: a backlog to catch up on. */
  readonly backlog: number;
}

export interface FollowerResult {
  readonly pushesPerSecond: number;
  readonly leadsReadPerSecond: number;
  readonly pagesPerSecond: number;
  readonly delayP50Ms: number;
  readonly delayP99Ms: number;
  readonly delayMaxMs: number;
  /** Pushed (acknowledged) during the run and never seen by the follower, after it drained. */
  readonly missed: number;
  readonly pushed: number;
  /** With a backlog: from the follower's start until it first saw a lead within 2 s of its push. */
  readonly catchUpSeconds: number | null;
}

async function main(spec: FollowerSpec): Promise<FollowerResult> {
  const base = `${spec.url}/v1/api/distributions/${spec.distributionId}/leads`;
  const headers = { authorization: `apikey ${spec.token}`, 'content-type': 'application/json' };
  const prefix = `follow-${Date.now().toString(36)}`;
  let n = 0;
  const push = async (): Promise<{ id: string; at: number } | undefined> => {
    const response = await fetch(`${base}/customers`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        prospect: { first_name: 'Followed', last_name: 'Lead', external_refs: [{ external_ref: `${prefix}-${n++}` }] },
      }),
    });
    if (response.status !== 201) throw new Error(`push answered ${response.status}: ${await response.text()}`);
    return { id: ((await response.json()) as { id: string }).id, at: performance.now() };
  };

  for (let done = 0; done < spec.backlog; )
    await Promise.all(Array.from({ length: Math.min(50, spec.backlog - done) }, () => push().then(() => done++)));

  const acknowledged = new Map<string, number>();
  const seen = new Map<string, number>();
  let stop = false;
  const started = performance.now();
  const pushers = Array.from({ length: spec.pushers }, async () => {
    while (!stop) {
      const pushed = await push();
      if (pushed) acknowledged.set(pushed.id, pushed.at);
    }
  });

  let pages = 0;
  let position = spec.backlog > 0 ? '1970-01-01T00:00:00.000Z' : new Date(Date.now() - 1000).toISOString();
  let catchUp: number | null = null;
  const follow = async (until: () => boolean) => {
    while (!until()) {
      let next: string | null = `${base}?limit=100&updated_since=${encodeURIComponent(position)}`;
      let full = false;
      while (next) {
        const response = await fetch(next, { headers: { authorization: headers.authorization } });
        if (!response.ok) throw new Error(`listing answered ${response.status}: ${await response.text()}`);
        const page = (await response.json()) as {
          items: Array<{ id: string; updated_at: string }>;
          next: string | null;
        };
        pages++;
        const now = performance.now();
        for (const lead of page.items) {
          if (!seen.has(lead.id)) seen.set(lead.id, now);
          if (lead.updated_at > position) position = lead.updated_at;
          const ack = acknowledged.get(lead.id);
          if (catchUp === null && spec.backlog > 0 && ack !== undefined && now - ack <= 2000)
            catchUp = (now - started) / 1000;
        }
        full = page.items.length === 100;
        next = page.next;
      }
      // Caught up: ask again shortly, as a partner polling often would.
      if (!full) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const deadline = started + spec.seconds * 1000;
  await follow(() => performance.now() > deadline);
  stop = true;
  await Promise.all(pushers);
  const seconds = (performance.now() - started) / 1000;
  const pushed = acknowledged.size;
  // Drain: the follower reads until it has seen every acknowledged lead, or gives up after 10 s.
  const drainUntil = performance.now() + 10_000;
  await follow(() => [...acknowledged.keys()].every((id) => seen.has(id)) || performance.now() > drainUntil);

  const delays = [...acknowledged]
    .flatMap(([id, at]) => (seen.has(id) ? [Math.max(0, seen.get(id)! - at)] : []))
    .sort((a, b) => a - b);
  const quantile = (q: number) => delays[Math.min(delays.length - 1, Math.ceil(q * delays.length) - 1)] ?? NaN;
  return {
    pushesPerSecond: pushed / seconds,
    leadsReadPerSecond: seen.size / seconds,
    pagesPerSecond: pages / seconds,
    delayP50Ms: quantile(0.5),
    delayP99Ms: quantile(0.99),
    delayMaxMs: delays.at(-1) ?? NaN,
    missed: [...acknowledged.keys()].filter((id) => !seen.has(id)).length,
    pushed,
    catchUpSeconds: catchUp,
  };
}

if (import.meta.main) {
  const spec = JSON.parse(process.argv[2] ?? '') as FollowerSpec;
  process.stdout.write(`${JSON.stringify(await main(spec))}\n`);
}
