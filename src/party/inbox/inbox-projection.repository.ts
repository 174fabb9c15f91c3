// The SQL of the inbox projector (docs/design.md section 13, "How far behind the inbox may
// be"): what a push no longer writes in its own transaction, brought up to date after it.
// Per distribution, a mark (`lead_projections`): leads created before `counted_to` are in
// `lead_status_counts`, and on SQLite leads at or before (`indexed_at`, `indexed_id`) in
// the order (updated_at, id) have their current words in `lead_search` and what the orders
// by status, name and kind sort by in `lead_orders`. A mark only ever
// claims leads that no later write can be stamped before (the horizon): on SQLite the
// writer's own time, on PostgreSQL the change listing's horizon (section 9), below which
// every lead writer has committed. The same step folds the pushes past `sourced_to` into the
// sums of where leads come from (party/stats/source-counts.repository.ts), up to the same
// horizon, in batches: a push is stamped like the lead it writes.
import type { Kysely } from 'kysely';
import type { Database, Dialect } from '../../db/database.ts';
import { runCount, runText } from '../../db/statements.ts';
import { foldSources } from '../stats/source-counts.repository.ts';
import { listingHorizon } from '../store/change-clock.repository.ts';
import { statusRankOf } from './inbox-filter.ts';

type Db = Kysely<Database>;

/**
 * The upper end of "the leads stamped since a mark", written out. PostgreSQL plans our
 * statements generically (db/database.ts: plan_cache_mode = force_generic_plan), and a
 * generic plan takes `created_at >= <a mark it cannot see>` for a third of the leads, so it
 * read them all: 60 ms at 100,000 leads, on every inbox page and every projector run. Bounded
 * on both sides the condition is planned as a narrow range (0.5%) and read from the index,
 * where the leads past a mark are few.
 */
export const LAST_STAMP = `'9999-12-31T23:59:59.999Z'`;

/** Leads indexed per statement: one FTS5 segment each, and a bound on how long one holds the writer. */
export const WORDS_PER_BATCH = 2000;

/**
 * Pushes folded into the sums of where leads come from per step: a bound on how long a step
 * holds SQLite's writer (and on PostgreSQL the mark, which status changes and erasures take
 * FOR SHARE) when a long push log is folded the first time: 50 ms on a quiet machine.
 */
export const SOURCES_PER_BATCH = 5_000;

/** The distributions with leads past a mark: counted (both), indexed (SQLite); or pushes past the sources' mark. */
export async function distributionsBehind(db: Db, dialect: Dialect): Promise<string[]> {
  const words =
    dialect === 'sqlite'
      ? `or exists (select 1 from leads l where l.distribution_id = d.id
          and (l.updated_at, l.id) > (coalesce(p.indexed_at, ''), coalesce(p.indexed_id, '')))`
      : '';
  const rows = await runText<{ id: string }>(
    db,
    `select d.id from distributions d left join lead_projections p on p.distribution_id = d.id
      where exists (select 1 from leads l where l.distribution_id = d.id
        and l.created_at >= coalesce(p.counted_to, '') and l.created_at <= ${LAST_STAMP})
      or exists (select 1 from lead_pushes s where s.distribution_id = d.id
        and s.received_at >= coalesce(p.sourced_to, '') and s.received_at <= ${LAST_STAMP})
      ${words}`,
    [],
  );
  return rows.map((row) => row.id);
}

interface Mark {
  readonly counted_to: string;
  readonly sourced_to: string;
  readonly indexed_at: string;
  readonly indexed_id: string;
}

/**
 * The distribution's mark, held until the transaction ends (PostgreSQL: FOR UPDATE, and
 * undefined when another process's projector holds it; SQLite's writer is alone anyway).
 */
async function lockMark(db: Db, dialect: Dialect, distributionId: string): Promise<Mark | undefined> {
  const p = dialect === 'postgres' ? '$1' : '?1';
  await runCount(db, `insert into lead_projections (distribution_id) values (${p}) on conflict do nothing`, [
    distributionId,
  ]);
  const lock = dialect === 'postgres' ? 'for update skip locked' : '';
  const rows = await runText<Mark>(
    db,
    `select counted_to, sourced_to, indexed_at, indexed_id from lead_projections where distribution_id = ${p} ${lock}`,
    [distributionId],
  );
  return rows[0];
}

/** Leads created before `horizon` and not yet counted go into the counts, with the status they have now. */
async function countUpTo(db: Db, dialect: Dialect, distributionId: string, from: string, horizon: string) {
  const [d, f, h] = dialect === 'postgres' ? ['$1', '$2', '$3'] : ['?1', '?2', '?3'];
  await runCount(
    db,
    `insert into lead_status_counts (distribution_id, status, leads)
      select distribution_id, status, count(*) from leads
        where distribution_id = ${d} and created_at >= ${f} and created_at < ${h} group by distribution_id, status
      on conflict (distribution_id, status) do update set leads = lead_status_counts.leads + excluded.leads`,
    [distributionId, from, horizon],
  );
  const [d2, h2] = dialect === 'postgres' ? ['$1', '$2'] : ['?1', '?2'];
  await runCount(db, `update lead_projections set counted_to = ${h2} where distribution_id = ${d2}`, [
    distributionId,
    horizon,
  ]);
}

/**
 * SQLite: the words and the orders' row of the next WORDS_PER_BATCH leads past the mark,
 * replaced by rowid, a statement each. Every lead past the mark is projected, those stamped
 * at or after `horizon` too (a search or an ordered page right after a push finds it), but
 * the mark claims only what no later write can be stamped before. True when more leads are
 * waiting.
 */
async function projectPastMark(db: Db, distributionId: string, mark: Mark, horizon: string): Promise<boolean> {
  const [last] = await runText<{ updated_at: string; id: string }>(
    db,
    `select updated_at, id from leads where distribution_id = ?1 and (updated_at, id) > (?2, ?3)
      order by updated_at, id limit 1 offset ${WORDS_PER_BATCH - 1}`,
    [distributionId, mark.indexed_at, mark.indexed_id],
  );
  const upTo = last === undefined ? '' : 'and (updated_at, id) <= (?4, ?5)';
  const range = [
    distributionId,
    mark.indexed_at,
    mark.indexed_id,
    ...(last === undefined ? [] : [last.updated_at, last.id]),
  ];
  const past = `from leads where distribution_id = ?1 and (updated_at, id) > (?2, ?3) ${upTo}`;
  // Words only of leads whose words changed since they were indexed (their `words_at` against
  // the copy in lead_orders, which the statement after this one updates): most leads past the
  // mark were stamped by a write that kept them (a re-sync, a status change), and replacing a
  // lead's row of the FTS5 index is most of the projector's work per lead.
  await runCount(
    db,
    `insert or replace into lead_search (rowid, search_words)
      select l.rowid, l.search_words from (select rowid, search_words, words_at ${past}) as l
        left join lead_orders o on o.lead_rowid = l.rowid
        where o.lead_rowid is null or o.words_at is not l.words_at`,
    range,
  );
  // A row whose values stand is left alone: most leads past the mark are merges that kept
  // their name and status, and a replace would take out and put back its three index entries.
  await runCount(
    db,
    `insert into lead_orders (lead_rowid, distribution_id, id, status_rank, sort_name, kind, words_at)
      select rowid, distribution_id, id, ${statusRankOf('status')}, sort_name, kind, words_at ${past}
      on conflict (lead_rowid) do update set distribution_id = excluded.distribution_id, id = excluded.id,
        status_rank = excluded.status_rank, sort_name = excluded.sort_name, kind = excluded.kind,
        words_at = excluded.words_at
      where (lead_orders.distribution_id, lead_orders.id, lead_orders.status_rank, lead_orders.sort_name, lead_orders.kind,
          lead_orders.words_at)
        is not (excluded.distribution_id, excluded.id, excluded.status_rank, excluded.sort_name, excluded.kind,
          excluded.words_at)`,
    range,
  );
  const next = last !== undefined && last.updated_at < horizon ? last : { updated_at: horizon, id: '' };
  await runCount(db, 'update lead_projections set indexed_at = ?2, indexed_id = ?3 where distribution_id = ?1', [
    distributionId,
    next.updated_at,
    next.id,
  ]);
  return last !== undefined;
}

/** What a step left for later steps: leads to index (SQLite), pushes to fold. */
export interface StillBehind {
  readonly words: boolean;
  readonly sources: boolean;
}

/**
 * One step of the projector for a distribution, in the caller's transaction: the counts up
 * to the horizon, a batch of the pushes past the sources' mark (at most `sourcesPerBatch`)
 * and on SQLite a batch of words. `now` is SQLite's writer time (its stamps' source). Says
 * what is still waiting beyond these batches; nothing when another process holds the
 * distribution (it does the work).
 */
export async function projectDistribution(
  db: Db,
  dialect: Dialect,
  distributionId: string,
  now: string,
  sourcesPerBatch = SOURCES_PER_BATCH,
): Promise<StillBehind> {
  const mark = await lockMark(db, dialect, distributionId);
  if (mark === undefined) return { words: false, sources: false };
  const horizon = dialect === 'postgres' ? ((await listingHorizon(db)) ?? now) : now;
  if (horizon > mark.counted_to) await countUpTo(db, dialect, distributionId, mark.counted_to, horizon);
  const sources =
    horizon > mark.sourced_to &&
    (await foldSources(db, dialect, distributionId, mark.sourced_to, horizon, sourcesPerBatch));
  const words = dialect === 'sqlite' && (await projectPastMark(db, distributionId, mark, horizon));
  return { words, sources };
}

/** SQLite: whether some lead of the distribution is past the word index's mark. */
export async function wordsBehind(db: Db, distributionId: string): Promise<boolean> {
  const [mark] = await runText<Mark>(
    db,
    'select counted_to, sourced_to, indexed_at, indexed_id from lead_projections where distribution_id = ?1',
    [distributionId],
  );
  const rows = await runText<{ id: string }>(
    db,
    'select id from leads where distribution_id = ?1 and (updated_at, id) > (?2, ?3) limit 1',
    [distributionId, mark?.indexed_at ?? '', mark?.indexed_id ?? ''],
  );
  return rows.length > 0;
}
