// The inbox's Name order from an index (docs/design.md section 13, the inbox): `sort_name` on
// every lead, a company's name or a person's last then first name, folded (no accents, lower
// case), kept with the search words by every write that changes the lead
// (party/inbox/search-words.ts, sortNameOf; erasure deletes the lead). Sorting the names when
// asked took 430-580 ms for a first page at 100,000 leads (docs/benchmarks.md). The existing
// leads are filled here in batches of 1,000; a lead without a name keeps null (the partial
// index leaves it out; the inbox shows it after the named ones).
// Frozen: written against Kysely<any>, imports nothing of the app.
import { type Kysely, sql } from 'kysely';

const BATCH = 1000;

function sortName(type: string, data: string): string | null {
  let fields: Record<string, unknown>;
  try {
    fields = JSON.parse(data) as Record<string, unknown>;
  } catch {
    return null;
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const name = type === 'COMPANY' ? text(fields.name) : `${text(fields.last_name)} ${text(fields.first_name)}`;
  return (
    name
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/\s+/g, ' ')
      .trim() || null
  );
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('leads').addColumn('sort_name', 'text').execute();
  let after = '';
  for (;;) {
    const rows: { id: string; type: string; data: string }[] = await db
      .selectFrom('leads')
      .innerJoin('parties', 'parties.id', 'leads.party_id')
      .select(['leads.id', 'parties.type', 'parties.data'])
      .where('leads.id', '>', after)
      .orderBy('leads.id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    const named = rows.flatMap((row) => {
      const name = sortName(row.type, row.data);
      return name === null ? [] : [sql`(${row.id}, ${name})`];
    });
    if (named.length > 0)
      await sql`with v(id, name) as (values ${sql.join(named)})
        update leads set sort_name = (select v.name from v where v.id = leads.id) where leads.id in (select id from v)`.execute(
        db,
      );
    after = rows.at(-1)!.id;
  }
  await db.schema
    .createIndex('leads_sort_name')
    .on('leads')
    .columns(['distribution_id', 'sort_name', 'id'])
    .where(sql.ref('sort_name'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('leads_sort_name').execute();
  await db.schema.alterTable('leads').dropColumn('sort_name').execute();
}
