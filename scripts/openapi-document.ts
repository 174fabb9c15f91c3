// Writes the OpenAPI document the app serves at /openapi.json (docs/design.md section 16),
// built in-process over a throwaway SQLite database: no server, no network. Used by
// `npm run lint:openapi` and by the client's `npm run generate` (clients/typescript/README.md).
//   node scripts/openapi-document.ts [OUTPUT]   (stdout without OUTPUT)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-intake-openapi-'));
try {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const database = openDatabase({ databaseUrl: undefined, dataDir, sqliteSynchronous: 'NORMAL' });
  const app = await buildApp({ config, database });
  await app.ready();
  const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
  await app.close();
  await database.close();
  const output = process.argv[2];
  if (output) fs.writeFileSync(output, document);
  else process.stdout.write(document);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
