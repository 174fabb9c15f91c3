// Migrations 2026-11-30T04-10 and 04-30 (docs/design.md section 13, the inbox): the leads
// already there get their Name order filled, a person by last then first name, a company by
// its name, folded (no accents, lower case), a lead without a name none, and their party's
// kind; going back drops them. (Migration 2026-11-30T08-00 moved their indexes on SQLite:
// it is undone first and done again last.)
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration from '../src/db/migrations/2026-11-30T04-10_lead_sort_name.ts';
import * as kindMigration from '../src/db/migrations/2026-11-30T04-30_lead_kind.ts';
import * as ordersMigration from '../src/db/migrations/2026-11-30T08-00_inbox_orders_projected.ts';
import { createTenant, createTestDatabase, type TestDatabase } from './support/test-server.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('the leads’ Name and Kind orders, filled by their migrations', () => {
  it('folds the names of the leads already there, leaves a lead without one empty, and copies the kinds', async () => {
    const db = database.handle.db as unknown as Kysely<any>;
    const { distributionId } = await createTenant(database.handle, ['leads:write']);
    await ordersMigration.down(db);
    await kindMigration.down(db);
    await migration.down(db);
    const now = '2026-11-28T00:00:00.000Z';
    const parties = [
      ['CUSTOMER', { first_name: 'Zoë', last_name: 'Éclair  De Smet' }],
      ['COMPANY', { name: 'Brouwerij De Ranke' }],
      ['CUSTOMER', { email: 'no-name@example.be' }],
    ] as const;
    // More than one batch of the migration's 1,000.
    const many = Array.from(
      { length: 1203 },
      (_, i) => ['CUSTOMER', { first_name: 'An', last_name: `P${i}` }] as const,
    );
    const all = [...parties, ...many];
    for (let from = 0; from < all.length; from += 200) {
      const slice = all.slice(from, from + 200).map(([type, data], i) => ({ type, data, n: from + i }));
      await db
        .insertInto('parties')
        .values(
          slice.map(({ type, data, n }) => ({
            id: `p-${distributionId}-${n}`,
            distribution_id: distributionId,
            type,
            data: JSON.stringify(data),
            version: 1,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
      await db
        .insertInto('leads')
        .values(
          slice.map(({ n }) => ({
            id: `l-${distributionId}-${String(n).padStart(5, '0')}`,
            distribution_id: distributionId,
            party_id: `p-${distributionId}-${n}`,
            status: 'new',
            search_words: '',
            created_at: now,
            updated_at: now,
            status_changed_at: now,
          })),
        )
        .execute();
    }

    await migration.up(db);
    await kindMigration.up(db);
    const names = await db
      .selectFrom('leads')
      .select(['id', 'sort_name', 'kind'])
      .where('distribution_id', '=', distributionId)
      .orderBy('id')
      .execute();
    expect(names.slice(0, 3).map((row) => row.sort_name)).toEqual(['eclair de smet zoe', 'brouwerij de ranke', null]);
    expect(names.at(-1)).toMatchObject({ sort_name: 'p1202 an' });
    expect(names.filter((row) => row.sort_name !== null)).toHaveLength(1205);
    expect(names.slice(0, 3).map((row) => row.kind)).toEqual(['CUSTOMER', 'COMPANY', 'CUSTOMER']);
    expect(names.filter((row) => row.kind === null)).toHaveLength(0);

    await kindMigration.down(db);
    await migration.down(db);
    const columns = await sql`select * from leads limit 1`.execute(db);
    expect(Object.keys(columns.rows[0] as object)).not.toContain('sort_name');
    expect(Object.keys(columns.rows[0] as object)).not.toContain('kind');
    await migration.up(db);
    await kindMigration.up(db);
    await ordersMigration.up(db);
  });
});
