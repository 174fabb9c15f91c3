// Imports into a SQLite reference file of its own (sqlite-files.ts): built without a
// journal (a crash leaves only a staging file to throw away), indexed, synced to disk,
// then renamed over the live file in one atomic step.
import fs from 'node:fs';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { SOURCES, type ReferenceSourceDefinition, type SourceName } from '../import/reference-source.ts';
import { fold, textWords } from '../search/search-text.ts';
import { DATA_SET_INDEXES } from '../data-sets.ts';
import type { FinishStep, ImportRecord, ReferenceImporter, StagingImport } from './staging.ts';
import { liveFile, referenceDir, removeAbandonedStaging, stagingFile } from './sqlite-files.ts';

const SQL_TYPE = { int: 'integer', text: 'text', real: 'real' } as const;

export class SqliteReferenceImporter implements ReferenceImporter {
  readonly #dataDir: string;

  constructor(dataDir: string) {
    this.#dataDir = dataDir;
  }

  async begin(source: ReferenceSourceDefinition): Promise<StagingImport> {
    fs.mkdirSync(referenceDir(this.#dataDir), { recursive: true });
    removeAbandonedStaging(this.#dataDir, source.name);
    const file = stagingFile(this.#dataDir, source.name);
    fs.rmSync(file, { force: true });
    const db = new DatabaseSync(file);
    db.exec(
      'pragma journal_mode = off; pragma synchronous = off; pragma cache_size = -65536; pragma temp_store = file',
    );
    db.function('fold', { deterministic: true }, (text) => (text === null ? null : fold(String(text))));
    // A text's words between spaces (" 12 a "), so a word is found whole or as a prefix with
    // instr(). Called in ranges of rows (staging.ts, RangedStatement).
    db.function('spaced_words', { deterministic: true }, (text) => ` ${textWords(String(text ?? '')).join(' ')} `);
    const inserts = new Map<string, StatementSync>();
    const transient = new Set(source.transient);
    for (const [table, columns] of Object.entries(source.tables)) {
      const key = source.keys[table];
      const definitions = columns.map(
        ([name, type]) => `${name} ${SQL_TYPE[type]}${name === key ? ' primary key' : ''}`,
      );
      // Transient tables live in the connection's temporary file, gone at close: dropped
      // from the reference file they would leave it their size in free pages.
      db.exec(`create table ${transient.has(table) ? 'temp.' : ''}${table} (${definitions.join(', ')})`);
      inserts.set(table, db.prepare(`insert or ignore into ${table} values (${columns.map(() => '?').join(', ')})`));
    }
    db.exec('create table meta (record text not null)');
    const live = liveFile(this.#dataDir, source.name);
    return {
      async insert(table, rows) {
        const statement = inserts.get(table)!;
        db.exec('begin');
        for (const row of rows) statement.run(...(row as never[]));
        db.exec('commit');
      },
      async finish(given) {
        for (const step of DATA_SET_INDEXES[source.name].sqlite) run(db, step);
        for (const table of transient) db.exec(`drop table temp.${table}`);
        const record = { ...given, rows: { ...given.rows } };
        for (const table of Object.keys(source.tables)) {
          if (transient.has(table) || table in record.rows) continue;
          record.rows[table] = (
            db.prepare(`select count(*) as count from main.${table}`).get() as { count: number }
          ).count;
        }
        db.prepare('insert into meta (record) values (?)').run(JSON.stringify(record));
        db.exec('analyze');
        db.close();
        const fd = fs.openSync(file, 'r+');
        fs.fsyncSync(fd);
        fs.closeSync(fd);
        fs.renameSync(file, live);
        return record;
      },
      async abort() {
        if (db.isOpen) db.close();
        fs.rmSync(file, { force: true });
      },
    };
  }

  async status(): Promise<Record<SourceName, ImportRecord | null>> {
    return Object.fromEntries(SOURCES.map((source) => [source, readRecord(liveFile(this.#dataDir, source))])) as Record<
      SourceName,
      ImportRecord | null
    >;
  }
}

function run(db: DatabaseSync, step: FinishStep): void {
  if (typeof step === 'string') {
    db.exec(step);
    return;
  }
  const statement = db.prepare(step.sql);
  const { low, high } = db
    .prepare(`select min(${step.key}) - 1 as low, max(${step.key}) as high from ${step.table}`)
    .get() as {
    low: number | null;
    high: number | null;
  };
  if (low === null || high === null) return;
  for (let after = low; after < high; after += step.rows) statement.run(after, after + step.rows);
}

export function readRecord(file: string): ImportRecord | null {
  if (!fs.existsSync(file)) return null;
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const row = db.prepare('select record from meta').get() as { record: string } | undefined;
    return row ? (JSON.parse(row.record) as ImportRecord) : null;
  } finally {
    db.close();
  }
}
