// The SQL of what the webhooks remember about a person's callback URLs (docs/design.md
// section 14): a receiver's 410 is remembered per distribution and URL
// (webhook_stopped_urls), and a URL the person's callbacks list is about them. Every
// function takes the transaction (or the database) first.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';

type Db = Kysely<Database>;

/** The remembered 410s of the URLs the party's callbacks list, oldest first. */
export async function findStoppedUrlsOfParty(db: Db, distributionId: string, partyId: string) {
  return db
    .selectFrom('webhook_stopped_urls')
    .select(['url', 'stopped_at', 'delivery_id'])
    .where('distribution_id', '=', distributionId)
    .where('url', 'in', db.selectFrom('party_callbacks').select('url').where('party_id', '=', partyId))
    .orderBy('stopped_at')
    .orderBy('url')
    .execute();
}
