// Where the SQLite reference files live: `<DATA_DIR>/reference/<source>.db`, next to the
// main database but never inside it, so a long import never holds the write lock pushes
// need. An import builds `<source>.<pid>.importing.db` and renames it over the live file:
// rename is atomic, and readers that still have the old file open keep reading it.
import fs from 'node:fs';
import path from 'node:path';
import type { SourceName } from '../import/reference-source.ts';

export function referenceDir(dataDir: string): string {
  return path.join(dataDir, 'reference');
}

export function liveFile(dataDir: string, source: SourceName): string {
  return path.join(referenceDir(dataDir), `${source}.db`);
}

export function stagingFile(dataDir: string, source: SourceName): string {
  return path.join(referenceDir(dataDir), `${source}.${process.pid}.importing.db`);
}

/** Staging files of imports whose process is gone (killed, crashed): they are garbage. */
export function removeAbandonedStaging(dataDir: string, source: SourceName): void {
  const dir = referenceDir(dataDir);
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const match = new RegExp(`^${source}\\.(\\d+)\\.importing\\.db`).exec(name);
    if (match && !processAlive(Number(match[1]))) fs.rmSync(path.join(dir, name), { force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
