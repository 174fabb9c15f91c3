// Where leads come from (docs/design.md section 13), for the API's `.../stats/sources` and the
// broker app's `/app/sources`: a period of Brussels days (both included, at most a year), the
// inbox's days, read in one statement from the sums per day and source (source_counts) plus
// the pushes not folded into them yet, and summed by source-stats.ts.
import type { DatabaseHandle } from '../../db/database.ts';
import { type Problem, ValidationError } from '../../errors.ts';
import { readSourceCounts } from './source-counts.repository.ts';
import { addDays, brusselsMidnight, isDay, mondayOf } from '../../brussels-days.ts';
import { type SourceStats, summarize } from './source-stats.ts';

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
    // The whole weeks inside the period come from their week rows: from the first Monday on
    // to the Monday after `to` (when that is later).
    const firstWeek = from === mondayOf(from) ? from : mondayOf(addDays(from, 7));
    const afterWeeks = mondayOf(addDays(to, 1));
    const rows = await readSourceCounts(this.#database.db, distributionId, {
      fromDay: from,
      toDay: to,
      firstWeek: afterWeeks > firstWeek ? firstWeek : addDays(to, 1),
      afterWeeks: afterWeeks > firstWeek ? afterWeeks : addDays(to, 1),
      start: brusselsMidnight(from),
      before: brusselsMidnight(addDays(to, 1)),
    });
    return summarize({ from, to }, rows);
  }
}
