// The upsert proven against a model (docs/fuzzing.md): random sequences of pushes of both
// kinds, concurrent pairs, batches, party and lead PATCHes, erasures and merges of two
// parties over a few people, with ids kept, renewed,
// reused by another kind or party, or dangling, and refs, VINs and numbers moving between
// objects, run against a real server and compared after every step with the in-memory
// model of docs/design.md section 2 (lead-model.ts). `npm test` runs a bounded, repeatable
// number of sequences; `npm run fuzz` runs MODEL_RUNS (default 10,000) from a new seed. A
// failing sequence is shrunk and printed as an entry to paste into replays.test.ts.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dialect, startTestServer, type TestServer } from '../support/test-server.ts';
import { startRun, statistics, step, type Run } from './model-run.ts';
import { anyRequest, type Request } from './requests.ts';

const LONG_RUN = process.env.FUZZ === '1';
const RUNS = Number(process.env.MODEL_RUNS ?? (LONG_RUN ? 10_000 : 100));
// Longer sequences in a long run: a merge needs two parties first, and what follows it is the point.
const COMMANDS = Number(process.env.MODEL_COMMANDS ?? (LONG_RUN ? 20 : 12));
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : LONG_RUN ? undefined : 20261126;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT: 'off', WEBHOOK_WORKER: 'false' });
});
afterAll(() => server?.close());

class RequestCommand implements fc.AsyncCommand<Run, Run> {
  readonly request: Request;
  constructor(request: Request) {
    this.request = request;
  }
  /** A merge of another party runs once the run has two (else it would mostly merge a party with itself). */
  check(run: Readonly<Run>): boolean {
    return !(this.request.op === 'merge' && this.request.from.startsWith('{next') && run.parties.length < 2);
  }
  async run(_model: Run, run: Run): Promise<void> {
    await step(run, this.request);
  }
  toString(): string {
    return JSON.stringify(this.request);
  }
}

it(
  `answers every sequence as the model does (${RUNS} sequences)`,
  async () => {
    const started = Date.now();
    const result = await fc.check(
      fc.asyncProperty(
        fc.commands([anyRequest.map((request) => new RequestCommand(request))], {
          maxCommands: COMMANDS,
          // A long run draws sequences of every length alike, not mostly short ones.
          ...(LONG_RUN && { size: 'max' as const }),
        }),
        async (commands) => {
          const run = await startRun(server);
          // The run is its own model: check() reads how many parties it has.
          await fc.asyncModelRun(() => ({ model: run, real: run }), commands);
        },
      ),
      { numRuns: RUNS, ...(SEED !== undefined && { seed: SEED }), endOnFailure: false },
    );
    if (LONG_RUN)
      console.log(
        JSON.stringify({
          dialect,
          runs: result.numRuns,
          seed: result.seed,
          commands: COMMANDS,
          seconds: (Date.now() - started) / 1000,
          statistics,
        }),
      );
    if (result.failed) {
      // fast-check hands back its wrappers of the commands run.
      const ran = [...(result.counterexample![0] as Iterable<{ cmd?: RequestCommand; hasRan?: boolean }>)].filter(
        (command) => command.hasRan !== false,
      );
      const requests = ran.map((command) => (command.cmd ?? (command as RequestCommand)).request);
      const error = result.errorInstance as { message?: string; actual?: unknown; expected?: unknown };
      expect.fail(
        `A sequence the model answers otherwise (seed ${result.seed}, shrunk). Paste into REPLAYS in test/model/replays.test.ts:\n\n` +
          `'replays a sequence the model test found': ${JSON.stringify(requests, null, 2)},\n\n` +
          `${error.message}\n\nread back: ${JSON.stringify(error.actual)}\nthe model: ${JSON.stringify(error.expected)}`,
      );
    }
  },
  LONG_RUN ? 24 * 3600_000 : 300_000,
);
