// The SQL of failed sign-ins (sso_login_failures): rows, so every process serving from one
// PostgreSQL counts the same attempts (login-throttle.ts decides what they mean).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';

type Db = Kysely<Database>;

/** Failures of each subject after `since`, by subject; a subject without any is absent. */
export async function countFailuresSince(
  db: Db,
  subjects: readonly string[],
  since: string,
): Promise<Array<{ subject: string; failures: number | string }>> {
  return db
    .selectFrom('sso_login_failures')
    .select(['subject', (eb) => eb.fn.countAll<number | string>().as('failures')])
    .where('subject', 'in', subjects)
    .where('failed_at', '>', since)
    .groupBy('subject')
    .execute();
}

export async function insertFailures(db: Db, subjects: readonly string[], at: string): Promise<void> {
  await db
    .insertInto('sso_login_failures')
    .values(subjects.map((subject) => ({ id: randomUUID(), subject, failed_at: at })))
    .execute();
}

export async function deleteFailuresUntil(db: Db, until: string): Promise<void> {
  await db.deleteFrom('sso_login_failures').where('failed_at', '<=', until).execute();
}

export async function deleteFailuresOf(db: Db, subject: string): Promise<void> {
  await db.deleteFrom('sso_login_failures').where('subject', '=', subject).execute();
}
