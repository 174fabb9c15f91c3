// Idempotency-Key answers in one row each (docs/design.md section 14; docs/api.md, "Retrying
// safely"). The key's row is found by its lookup (the primary key, no separate id), and an
// answer that shows one person says whose in its own `party_id` column, which the erasure
// deletes by: a keyed push or PATCH writes that one row and no link row. Only an answer
// that shows several people (a batch) keeps one link row per person beside it.
// Rows of the old shape are carried over as they are. Frozen: Kysely<any>, no app imports.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_answers')
    // SHA-256 (hex) of credential, method, path and key.
    .addColumn('lookup', 'text', (c) => c.primaryKey())
    .addColumn('distribution_id', 'text')
    // The one person the answer shows; null when it shows none or several (see the links).
    .addColumn('party_id', 'text')
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    // running (a claim, with its lease) | done (the answer below is stored)
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('headers', 'text')
    .addColumn('body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('idempotency_answer_parties')
    .addColumn('lookup', 'text', (c) => c.notNull())
    .addColumn('distribution_id', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_answer_parties_pk', ['lookup', 'party_id'])
    .execute();

  await sql`insert into idempotency_answers
      (lookup, distribution_id, party_id, fingerprint, state, status, headers, body, created_at, expires_at)
    select k.lookup, k.distribution_id,
      (select case when count(*) = 1 then min(p.party_id) end from idempotency_key_parties p where p.key_id = k.id),
      k.fingerprint, k.state, k.status, k.headers, k.body, k.created_at, k.expires_at
    from idempotency_keys k`.execute(db);
  await sql`insert into idempotency_answer_parties (lookup, distribution_id, party_id)
    select k.lookup, p.distribution_id, p.party_id
    from idempotency_key_parties p join idempotency_keys k on k.id = p.key_id
    where (select count(*) from idempotency_key_parties q where q.key_id = p.key_id) > 1`.execute(db);
  await db.schema.dropTable('idempotency_key_parties').execute();
  await db.schema.dropTable('idempotency_keys').execute();

  // The purge finds expired rows by this; the erasure finds a person's answers by the next two.
  await db.schema.createIndex('idempotency_answers_expires').on('idempotency_answers').column('expires_at').execute();
  await db.schema
    .createIndex('idempotency_answers_party')
    .on('idempotency_answers')
    .column('party_id')
    .where(sql.ref('party_id'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('idempotency_answer_parties_party')
    .on('idempotency_answer_parties')
    .column('party_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('lookup', 'text', (c) => c.notNull().unique())
    .addColumn('distribution_id', 'text')
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('headers', 'text')
    .addColumn('body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idempotency_keys_expires').on('idempotency_keys').column('expires_at').execute();
  await db.schema
    .createTable('idempotency_key_parties')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('distribution_id', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_key_parties_pk', ['key_id', 'party_id'])
    .execute();
  await db.schema
    .createIndex('idempotency_key_parties_party')
    .on('idempotency_key_parties')
    .columns(['party_id', 'distribution_id'])
    .execute();
  // The lookup serves as the old id: it is unique too.
  await sql`insert into idempotency_keys
      (id, lookup, distribution_id, fingerprint, state, status, headers, body, created_at, expires_at)
    select lookup, lookup, distribution_id, fingerprint, state, status, headers, body, created_at, expires_at
    from idempotency_answers`.execute(db);
  await sql`insert into idempotency_key_parties (key_id, distribution_id, party_id)
    select lookup, distribution_id, party_id from idempotency_answers where party_id is not null
    union all select lookup, distribution_id, party_id from idempotency_answer_parties`.execute(db);
  await db.schema.dropTable('idempotency_answer_parties').execute();
  await db.schema.dropTable('idempotency_answers').execute();
}
