// Who holds a key, asked after matching (docs/design.md section 2, rules 4 and 9): the
// party holding a merged customer's new match key, the parties owning client-chosen risk
// object ids a PATCH adds, and which ids a refused push names are stored at all (section
// 3). Each one statement, fixed per dialect. Every function takes the transaction (or the
// database) first.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { run, statement } from '../../db/statements.ts';

type Db = Kysely<Database>;

const matchKeyOwner = statement('party_by_match_key', {
  sqlite: 'select id from parties where distribution_id = ?1 and match_key = ?2',
  postgres: 'select id from parties where distribution_id = $1 and match_key = $2',
});

/** The party of this distribution holding an email + birth + address key. */
export async function findMatchKeyOwner(db: Db, distributionId: string, matchKey: string): Promise<string | undefined> {
  return (await run<{ id: string }>(db, matchKeyOwner, [distributionId, matchKey]))[0]?.id;
}

const riskObjectOwners = statement('risk_object_owners', {
  sqlite: 'select id, party_id from risk_objects where id in (select value from json_each(?1))',
  postgres: 'select id, party_id from risk_objects where id = any($1::text[])',
});

/** Which of these client-chosen risk object ids are stored, and under which party. */
export async function findRiskObjectOwners(
  db: Db,
  ids: readonly string[],
): Promise<Array<{ id: string; party_id: string }>> {
  return ids.length === 0 ? [] : run(db, riskObjectOwners, [ids]);
}

const clientIdOwners = statement('client_id_owners', {
  sqlite: `select 'risk_objects' as tbl, id from risk_objects where id in (select value from json_each(?1))
    union all select 'policy_packages', id from policy_packages where id in (select value from json_each(?2))`,
  postgres: `select 'risk_objects' as tbl, id from risk_objects where id = any($1::text[])
    union all select 'policy_packages', id from policy_packages where id = any($2::text[])`,
});

/** Which of these risk object and package ids are stored (by any party), as `table:id`. */
export async function findStoredClientIds(
  db: Db,
  riskObjectIds: readonly string[],
  packageIds: readonly string[],
): Promise<Set<string>> {
  if (riskObjectIds.length + packageIds.length === 0) return new Set();
  const rows = await run<{ tbl: string; id: string }>(db, clientIdOwners, [riskObjectIds, packageIds]);
  return new Set(rows.map((row) => `${row.tbl}:${row.id}`));
}
