// The limit each push figure is measured against: the same rows written straight to the
// database, with no HTTP, no validation, no matching logic, no response. SQLite: prepared
// statements on node:sqlite, pushes grouped 50 to a transaction in savepoints as the
// server's group commit does, one multi-row INSERT per table. PostgreSQL: 10 connections
// with 50 pushes in flight, each a transaction of BEGIN, the lookup by external ref, one
// statement inserting every table's rows over unnested arrays (and for a merge, the head
// read and one statement updating party and lead), COMMIT; named prepared statements.
//   npx node bench/write-limits.ts           (both databases, printed as a table)
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import pg from 'pg';
import { v7 } from 'uuid';
import type { BenchDialect } from './database.ts';
import { createBenchDatabase } from './server-code.ts';
import { readOptions } from './options.ts';
import { postgresPids, totalCpuSeconds } from './procfs.ts';
import {
  type CoverageTable,
  type ExternalRefTable,
  type InsurancePolicyTable,
  type LeadPushTable,
  type LeadTable,
  type PartyTable,
  type PolicyPackageTable,
  type RiskObjectRevisionTable,
  type RiskObjectTable,
  WRITER_CLOCK_SQL,
} from '../src/party/index.ts';
import { migratedColumns } from './migrated-tables.ts';

export type LimitScenario = 'minimal' | 'full' | 'merge';

export interface WriteLimit {
  readonly dialect: BenchDialect;
  readonly scenario: LimitScenario;
  readonly pushesPerSecond: number;
  /** CPU of this process per push (the writer), in microseconds. */
  readonly writerCpuMicros: number;
  /** PostgreSQL's CPU per push, all its processes; null on SQLite. */
  readonly postgresCpuMicros: number | null;
}

/** The rows one push writes, by table, each typed as its table's row (src/party/model/party.table.ts). */
interface PushTables {
  parties: PartyTable[];
  leads: LeadTable[];
  risk_objects: RiskObjectTable[];
  risk_object_revisions: RiskObjectRevisionTable[];
  policy_packages: PolicyPackageTable[];
  insurance_policies: InsurancePolicyTable[];
  coverages: CoverageTable[];
  external_refs: ExternalRefTable[];
  lead_pushes: LeadPushTable[];
}
type Table = keyof PushTables;

/** In the order a push inserts them, as changeset.repository.ts does. */
const TABLES: readonly Table[] = [
  'parties',
  'leads',
  'risk_objects',
  'risk_object_revisions',
  'policy_packages',
  'insurance_policies',
  'coverages',
  'external_refs',
  'lead_pushes',
];

/** Each table's columns as the migrations create them: the statements below name them all, in order. */
const COLUMNS = await migratedColumns(TABLES);
/** Columns only SQLite's migrations add (COLUMNS is read off SQLite): PostgreSQL's inserts leave them out. */
const SQLITE_ONLY: Partial<Record<Table, readonly string[]>> = { leads: ['words_at'] };
/** A table's columns on PostgreSQL, each with its place in a row of COLUMNS' order. */
const postgresColumns = (table: Table) =>
  COLUMNS[table].names.flatMap((name, at) => (SQLITE_ONLY[table]?.includes(name) ? [] : [{ name, at }]));

interface PushRows {
  readonly ref: string;
  readonly tables: ReadonlyArray<{ readonly table: Table; readonly rows: readonly unknown[][] }>;
}

/** A new lead's rows: names and one ref, or (full) 3 cars, 2 packages, 6 policies of 3 coverages, as bench/payloads.ts sends. */
function newLeadRows(distributionId: string, n: number, full: boolean): PushRows {
  const now = new Date().toISOString();
  const partyId = v7();
  const leadId = v7();
  const ref = `limit-${n}-${randomUUID()}`;
  const data = JSON.stringify({
    first_name: 'Jan',
    last_name: 'Peeters',
    email: `${ref}@example.be`,
    telephonenr: '+32 9 123 45 67',
  });
  const created = { created_at: now, updated_at: now };
  const rows: PushTables = {
    parties: [
      { id: partyId, distribution_id: distributionId, type: 'CUSTOMER', data, match_key: null, version: 1, ...created },
    ],
    leads: [
      {
        id: leadId,
        distribution_id: distributionId,
        party_id: partyId,
        origin: 'bench',
        backref: null,
        source: 'bench',
        ...created,
        status: 'new',
        lost_reason: null,
        assignee_id: null,
        status_changed_at: now,
        follow_up_on: null,
        sort_name: 'peeters jan',
        kind: 'CUSTOMER',
        first_status_at: null,
        created_origin: null,
        created_sender: null,
        search_words: `jan peeters ${ref}`,
        // SQLite only (migration 2026-11-30T10-00): null while the words are those the lead was created with.
        words_at: null,
      },
    ],
    risk_objects: [],
    risk_object_revisions: [],
    policy_packages: [],
    insurance_policies: [],
    coverages: [],
    external_refs: [
      {
        distribution_id: distributionId,
        entity_type: 'party',
        company: 'bench-crm',
        ref,
        entity_id: partyId,
        created_at: now,
      },
    ],
    lead_pushes: [
      {
        id: v7(),
        lead_id: leadId,
        distribution_id: distributionId,
        received_at: now,
        status: 201,
        caller: 'token:bench',
        client_id: null,
        origin: 'bench',
        kind: 'CUSTOMER',
        payload: JSON.stringify({ prospect: { first_name: 'Jan' } }),
      },
    ],
  };
  if (full) {
    const cars = [0, 1, 2].map((c) => ({
      id: randomUUID(),
      revision: v7(),
      vin: `WVWZZZ${String(n * 3 + c).padStart(11, '0')}`,
    }));
    for (const [position, car] of cars.entries()) {
      rows.risk_objects.push({
        id: car.id,
        position,
        distribution_id: distributionId,
        party_id: partyId,
        type: 'CAR',
        vin: car.vin,
        current_revision_id: car.revision,
        ...created,
        removed_at: null,
        replaced_by: null,
      });
      rows.risk_object_revisions.push({
        id: car.revision,
        risk_object_id: car.id,
        revision_nr: 1,
        data: JSON.stringify({ vin: car.vin, brand: 'Volkswagen', kw: 85, value: '24500.00' }),
        created_at: now,
      });
    }
    const packages = [0, 1].map(() => randomUUID());
    for (const [position, id] of packages.entries()) {
      rows.policy_packages.push({
        id,
        position,
        distribution_id: distributionId,
        party_id: partyId,
        data: JSON.stringify({ name: 'Family', premium: '899.95', payment_interval: 'ANNUAL' }),
        ...created,
        replaced_by: null,
      });
    }
    for (let k = 0; k < 6; k++) {
      const policyId = v7();
      rows.insurance_policies.push({
        id: policyId,
        position: k,
        distribution_id: distributionId,
        party_id: partyId,
        policy_package_id: packages[k % 2]!,
        insurance_company: 'Example Insurance',
        policy_nr: `P-${ref}-${k}`,
        data: JSON.stringify({
          name: `Policy ${k}`,
          policy_nr: `P-${ref}-${k}`,
          type: 'ACTIVE',
          insurance_company: 'Example Insurance',
          premium: '320.00',
        }),
        ...created,
      });
      rows.external_refs.push({
        distribution_id: distributionId,
        entity_type: 'policy',
        company: 'bench-crm',
        ref: `pol-${ref}-${k}`,
        entity_id: policyId,
        created_at: now,
      });
      for (let v = 0; v < 3; v++) {
        rows.coverages.push({
          id: v7(),
          insurance_policy_id: policyId,
          position: v,
          risk_object_id: cars[(k + v) % 3]!.id,
          data: JSON.stringify({ name: 'Omnium', insured_value: 25000, premium: '106.67' }),
        });
      }
    }
  }
  return {
    ref,
    tables: TABLES.map((table) => ({
      table,
      // In the columns' order; a column a row lacks would fail here, not write a shifted row.
      rows: (rows[table] as readonly object[]).map((row) =>
        COLUMNS[table].names.map((name) => {
          if (!(name in row)) throw new Error(`a ${table} row has no ${name}`);
          return (row as Readonly<Record<string, unknown>>)[name];
        }),
      ),
    })),
  };
}

const SECONDS = 5;
const SQLITE_GROUP = 50;

async function sqliteLimit(dataDir: string, distributionId: string, scenario: LimitScenario): Promise<WriteLimit> {
  const db = new DatabaseSync(path.join(dataDir, 'lead-intake.db'));
  db.exec(
    'pragma journal_mode = wal; pragma synchronous = normal; pragma foreign_keys = on; pragma temp_store = memory; pragma busy_timeout = 10000',
  );
  const statements = new Map<string, StatementSync>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const findRef = prepared(
    "select entity_id from external_refs where distribution_id = ? and entity_type = 'party' and company = ? and ref = ?",
  );
  const head = prepared(
    'select p.id, p.version, l.id as lead_id from parties p join leads l on l.party_id = p.id where p.id = ?',
  );
  const updateParty = prepared('update parties set data = ?, updated_at = ?, version = ? where id = ? and version = ?');
  const updateLead = prepared('update leads set updated_at = ? where id = ?');
  const insertPush = prepared(
    'insert into lead_pushes (id, lead_id, distribution_id, received_at, status, caller, origin, kind, payload) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const write = ({ tables }: PushRows) => {
    for (const { table, rows } of tables) {
      if (rows.length === 0) continue;
      const { names } = COLUMNS[table];
      const values = Array.from({ length: rows.length }, () => `(${names.map(() => '?').join(', ')})`).join(', ');
      prepared(`insert into ${table} (${names.join(', ')}) values ${values}`).run(...(rows.flat() as never[]));
    }
  };

  // The merge scenario updates 1,000 leads round-robin.
  const targets: Array<{ ref: string }> = [];
  if (scenario === 'merge') {
    db.exec('begin');
    for (let i = 0; i < 1000; i++) {
      const rows = newLeadRows(distributionId, i, false);
      write(rows);
      targets.push({ ref: rows.ref });
    }
    db.exec('commit');
  }
  let pushes = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  while (performance.now() - started < SECONDS * 1000) {
    db.exec('begin immediate');
    for (let j = 0; j < SQLITE_GROUP; j++, pushes++) {
      db.exec('savepoint job');
      if (scenario === 'merge') {
        const now = new Date().toISOString();
        const found = findRef.get(distributionId, 'bench-crm', targets[pushes % targets.length]!.ref) as {
          entity_id: string;
        };
        const lead = head.get(found.entity_id) as { id: string; version: number; lead_id: string };
        updateParty.run(
          JSON.stringify({ first_name: 'Jan', telephonenr: `+32 ${pushes}` }),
          now,
          lead.version + 1,
          lead.id,
          lead.version,
        );
        updateLead.run(now, lead.lead_id);
        insertPush.run(v7(), lead.lead_id, distributionId, now, 200, 'token:bench', 'bench', 'CUSTOMER', '{}');
      } else {
        const rows = newLeadRows(distributionId, pushes, scenario === 'full');
        findRef.get(distributionId, 'bench-crm', rows.ref);
        write(rows);
      }
      db.exec('release savepoint job');
    }
    db.exec('commit');
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  db.close();
  return {
    dialect: 'sqlite',
    scenario,
    pushesPerSecond: pushes / seconds,
    writerCpuMicros: (used.user + used.system) / pushes,
    postgresCpuMicros: null,
  };
}

const CONNECTIONS = 10;
const KEY_LOCKS =
  'select count(*) from (select pg_advisory_xact_lock(k) from unnest($1::bigint[]) as k order by k) as each_key';
const IN_FLIGHT = 50;

/**
 * What a PostgreSQL push does around its lookup: nothing more (`plain`); the writer's mark
 * and clock read in the lookup statement, as a push does now for the change listing
 * (docs/design.md section 9, `writer-clock`); or also a statement of its own taking an
 * advisory lock on each key of the push first (`key-locks`, how rule 10 across processes
 * was kept before one-snapshot lookups). bench/scaling.ts compares them.
 */
export type LookupVariant = 'plain' | 'writer-clock' | 'key-locks';

export async function postgresLimit(
  url: string,
  distributionId: string,
  scenario: LimitScenario,
  variant: LookupVariant = 'plain',
): Promise<WriteLimit> {
  const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });
  // pool.end() resolves as it starts closing its clients, and the database is dropped (its
  // sessions terminated) next: a client still closing then reports the termination as an
  // 'error' event, the pool passes it on as its own, and with no one listening it ended the
  // whole run. A failed query still rejects its own promise.
  pool.on('error', () => {});
  const texts = new Map<string, string>();
  /** One statement inserting every table's rows, over one array per column. */
  const insertAll = ({ tables }: PushRows) => {
    const used = tables.filter((t) => t.rows.length > 0);
    const key = used.map((t) => t.table).join(',');
    let next = 1;
    const parts = used.map(({ table }) => {
      const { integers } = COLUMNS[table];
      const names = postgresColumns(table).map((column) => column.name);
      const arrays = names.map((name) => `$${next++}::${integers.has(name) ? 'integer' : 'text'}[]`).join(', ');
      return `insert into ${table} (${names.join(', ')}) select * from unnest(${arrays})`;
    });
    const last = parts.pop()!;
    const text = parts.length === 0 ? last : `with ${parts.map((p, i) => `i${i} as (${p})`).join(', ')} ${last}`;
    if (!texts.has(key)) texts.set(key, `limit_insert_${texts.size}`);
    const values = used.flatMap(({ table, rows }) =>
      postgresColumns(table).map(({ at }) => rows.map((row) => row[at])),
    );
    return { name: texts.get(key)!, text, values };
  };
  const findRef =
    "select entity_id from external_refs where distribution_id = $1 and entity_type = 'party' and company = $2 and ref = $3";
  const findRefWithClock = `with ${WRITER_CLOCK_SQL} select c.now, r.entity_id from clock c left join (${findRef}) r on true`;

  const targets: string[] = [];
  if (scenario === 'merge') {
    for (let i = 0; i < 1000; i++) {
      const rows = newLeadRows(distributionId, i, false);
      await pool.query(insertAll(rows));
      targets.push(rows.ref);
    }
  }
  let pushes = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const one = async (n: number) => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      if (scenario === 'merge') {
        const now = new Date().toISOString();
        const found = await client.query({
          name: 'limit_find',
          text: findRef,
          values: [distributionId, 'bench-crm', targets[n % targets.length]],
        });
        const lead = await client.query({
          name: 'limit_head',
          text: 'select p.id, p.version, l.id as lead_id from parties p join leads l on l.party_id = p.id where p.id = $1 for update of p',
          values: [found.rows[0].entity_id],
        });
        const { id, version, lead_id } = lead.rows[0];
        await client.query({
          name: 'limit_update',
          text:
            'with p as (update parties set data = $1, updated_at = $2, version = $3 where id = $4 and version = $5 returning id), ' +
            'l as (update leads set updated_at = $2 where id = $6 and exists (select 1 from p)) ' +
            'insert into lead_pushes (id, lead_id, distribution_id, received_at, status, caller, origin, kind, payload) select $7, $6, $8, $2, 200, $9, $10, $11, $12 from p',
          values: [
            JSON.stringify({ first_name: 'Jan', telephonenr: `+32 ${n}` }),
            now,
            version + 1,
            id,
            version,
            lead_id,
            v7(),
            distributionId,
            'token:bench',
            'bench',
            'CUSTOMER',
            '{}',
          ],
        });
      } else {
        const rows = newLeadRows(distributionId, n, scenario === 'full');
        if (variant === 'key-locks') {
          // Two keys per push, as a minimal push has (its ref and its match key), unique to it.
          await client.query({
            name: 'limit_key_locks',
            text: KEY_LOCKS,
            values: [[String(2 * n + 1), String(2 * n + 2)]],
          });
        }
        const lookup =
          variant === 'plain'
            ? { name: 'limit_find', text: findRef }
            : { name: 'limit_find_clock', text: findRefWithClock };
        await client.query({ ...lookup, values: [distributionId, 'bench-crm', rows.ref] });
        await client.query(insertAll(rows));
      }
      await client.query('commit');
    } finally {
      client.release();
    }
  };
  const cpu = process.cpuUsage();
  const pgBefore = totalCpuSeconds(postgresPids());
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < deadline) await one(pushes++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const pgSeconds = totalCpuSeconds(postgresPids()) - pgBefore;
  await pool.end();
  return {
    dialect: 'postgres',
    scenario,
    pushesPerSecond: pushes / seconds,
    writerCpuMicros: (used.user + used.system) / pushes,
    postgresCpuMicros: (pgSeconds * 1e6) / pushes,
  };
}

export async function measureWriteLimits(
  dialects: readonly BenchDialect[],
  postgresUrl: string,
): Promise<WriteLimit[]> {
  const results: WriteLimit[] = [];
  for (const dialect of dialects) {
    for (const scenario of ['minimal', 'full', 'merge'] as const) {
      const database = await createBenchDatabase(dialect, postgresUrl);
      try {
        results.push(
          dialect === 'sqlite'
            ? await sqliteLimit(database.env.DATA_DIR!, database.distributionId, scenario)
            : await postgresLimit(database.env.DATABASE_URL!, database.distributionId, scenario),
        );
      } finally {
        await database.drop();
      }
    }
  }
  return results;
}

const LABELS: Record<LimitScenario, string> = {
  minimal: '(a) minimal push',
  full: '(b) full push',
  merge: '(c) merge',
};

export function renderWriteLimits(limits: readonly WriteLimit[]): string {
  const fmt = (value: number) => Math.round(value).toLocaleString('en-US');
  const rows = limits.map(
    (l) =>
      `| ${l.dialect} | ${LABELS[l.scenario]} | ${fmt(l.pushesPerSecond)} | ${fmt(l.writerCpuMicros)} | ${l.postgresCpuMicros === null ? 'n/a' : fmt(l.postgresCpuMicros)} |`,
  );
  return [
    '| Database | Scenario | raw writes, pushes/s | writer CPU µs per push | PostgreSQL CPU µs per push |',
    '|---|---|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
}

if (import.meta.main) {
  const options = readOptions();
  process.stdout.write(renderWriteLimits(await measureWriteLimits(options.databases, options.postgresUrl)));
}
