// The SSO client a push came through (docs/design.md section 13): where leads come from is
// counted per sender, an API token or an SSO client, and a push by a signed-in user names
// only the user in `caller`. Null for a push with an API token.
// Frozen: written against Kysely<any>, imports nothing of the app.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('lead_pushes').addColumn('client_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('lead_pushes').dropColumn('client_id').execute();
}
