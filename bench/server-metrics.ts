// What a bench reads from the server's own /metrics.

/** The value of an unlabelled metric, or null when the server does not export it (an early revision). */
export async function metricValue(url: string, name: string): Promise<number | null> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? null : Number(line.split(' ')[1]);
}

/** Every statement the server ran so far, BEGIN and COMMIT and the token lookup included. */
export async function statementsSoFar(url: string): Promise<number> {
  const count = await metricValue(url, 'lead_intake_database_statements_total');
  if (count === null) throw new Error('/metrics has no lead_intake_database_statements_total');
  return count;
}
