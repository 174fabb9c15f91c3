// Group commit on SQLite (src/db/transaction-runner.ts): jobs handed to the writer in one
// turn share a transaction, and each still commits or fails as if alone. A batch of
// rerunnable jobs (commitWrite's) runs without savepoints; one that fails after it wrote
// undoes the batch, which runs again in savepoints. Whatever the mix, the rows stored are
// exactly those of the jobs that succeeded, each once, and a job that may not run again ran once.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runText } from '../src/db/statements.ts';
import { createTransactionRunner, type TransactionRunner } from '../src/db/transaction-runner.ts';
import { dialect, startTestServer, type TestServer } from './support/test-server.ts';

interface JobSpec {
  /** Rows the job inserts before it ends or fails. */
  readonly writes: number;
  readonly fails: boolean;
  readonly rerunnable: boolean;
}

describe.runIf(dialect === 'sqlite')('group commit (SQLite)', () => {
  let server: TestServer;
  let transactions: TransactionRunner;
  let round = 0;

  beforeAll(async () => {
    server = await startTestServer();
    transactions = createTransactionRunner(server.database.handle);
    await runText(
      server.database.handle.db,
      'create table group_commit_rows (job text not null, n integer not null)',
      [],
    );
  });
  afterAll(async () => {
    await transactions?.close();
    await server?.close();
  });

  const stored = async (prefix: string) =>
    (
      await runText<{ job: string; rows: number }>(
        server.database.handle.db,
        `select job, count(*) as rows from group_commit_rows where job like ?1 || '%' group by job order by job`,
        [prefix],
      )
    ).map((row) => [row.job, Number(row.rows)] as const);

  /** Hands every job to the writer in one turn; what each answered and how often each ran. */
  async function runBatch(specs: readonly JobSpec[]) {
    const prefix = `r${++round}-`;
    const runs = specs.map(() => 0);
    const answers = await Promise.allSettled(
      specs.map((spec, index) =>
        transactions.run(
          async (trx) => {
            runs[index]!++;
            const job = `${prefix}${String(index).padStart(3, '0')}`;
            for (let n = 0; n < spec.writes; n++)
              await runText(trx, 'insert into group_commit_rows (job, n) values (?1, ?2)', [job, n]);
            if (spec.fails) throw new Error(`job ${index} refused`);
            return job;
          },
          { rerunnable: spec.rerunnable },
        ),
      ),
    );
    return { prefix, runs, answers };
  }

  const expectAsAlone = async (specs: readonly JobSpec[], batch: Awaited<ReturnType<typeof runBatch>>) => {
    const { prefix, runs, answers } = batch;
    specs.forEach((spec, index) => {
      const answer = answers[index]!;
      if (spec.fails) expect(answer.status, `job ${index}`).toBe('rejected');
      else expect(answer).toEqual({ status: 'fulfilled', value: `${prefix}${String(index).padStart(3, '0')}` });
      if (!spec.rerunnable) expect(runs[index], `job ${index} may not run again`).toBe(1);
    });
    const expected = specs.flatMap((spec, index) =>
      !spec.fails && spec.writes > 0 ? [[`${prefix}${String(index).padStart(3, '0')}`, spec.writes] as const] : [],
    );
    expect(await stored(prefix)).toEqual(expected);
  };

  // A refused push throws before its writes: nothing to undo. A failure after a write undoes
  // the batch, which runs again in savepoints from its first job (the last had not run yet).
  it.each([
    {
      title: 'undoes a rerunnable job that failed after it wrote, and keeps the others once',
      specs: [
        { writes: 1, fails: false, rerunnable: true },
        { writes: 2, fails: true, rerunnable: true },
        { writes: 1, fails: false, rerunnable: true },
      ],
      runs: [2, 2, 1],
    },
    {
      title: 'runs a batch of rerunnable jobs once when the one that fails wrote nothing',
      specs: [
        { writes: 1, fails: false, rerunnable: true },
        { writes: 0, fails: true, rerunnable: true },
        { writes: 3, fails: false, rerunnable: true },
      ],
      runs: [1, 1, 1],
    },
  ])('$title', async ({ specs, runs }) => {
    const batch = await runBatch(specs);
    await expectAsAlone(specs, batch);
    expect(batch.runs).toEqual(runs);
  });

  it('keeps every job as if alone, over batches of any mix', async () => {
    const job = fc.record({
      writes: fc.integer({ min: 0, max: 3 }),
      fails: fc.boolean(),
      rerunnable: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(job, { minLength: 1, maxLength: 12 }), async (specs) => {
        await expectAsAlone(specs, await runBatch(specs));
      }),
      { numRuns: 100 },
    );
  });
});
