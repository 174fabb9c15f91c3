// Where leads come from (docs/design.md section 16), for the API's `.../stats/sources` and the
// broker app's `/app/sources`: a period of UTC days (both included, at most a year), read in
// three statements over the pushes' index and summed by source-stats.ts.
import type { DatabaseHandle } from '../../db/database.ts';
import { type Problem, ValidationError } from '../../errors.ts';
import { addDays, type SourceStats, summarize } from './source-stats.ts';
import { createdLeadCounts, pushCounts, reactionHours } from './source-stats.repository.ts';

/** The longest period asked for at once, in days. */
export const MAX_PERIOD_DAYS = 366;

export class SourceStatsReader {
  readonly #database: DatabaseHandle;

  constructor(deps: { database: DatabaseHandle }) {
    this.#database = deps.database;
  }

  /** 422 on `from` or `to` when not a day of the calendar, `to` before `from`, or more than a year between. */
  async read(distributionId: string, from: string, to: string): Promise<SourceStats> {
    const problems: Problem[] = [];
    if (!isDay(from)) problems.push({ target: 'from', code: 'invalid' });
    if (!isDay(to)) problems.push({ target: 'to', code: 'invalid' });
    else if (isDay(from) && (to < from || to > addDays(from, MAX_PERIOD_DAYS - 1)))
      problems.push({ target: 'to', code: 'invalid' });
    if (problems.length > 0) throw new ValidationError(problems);
    const { db, dialect } = this.#database;
    const start = `${from}T00:00:00.000Z`;
    const before = `${addDays(to, 1)}T00:00:00.000Z`;
    const [pushes, created, reactions] = await Promise.all([
      pushCounts(db, dialect, distributionId, start, before),
      createdLeadCounts(db, dialect, distributionId, start, before),
      reactionHours(db, dialect, distributionId, start, before),
    ]);
    return summarize({ from, to }, pushes, created, reactions);
  }
}

function isDay(text: string): boolean {
  const parsed = Date.parse(`${text}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(parsed) && new Date(parsed).toISOString().startsWith(text);
}
