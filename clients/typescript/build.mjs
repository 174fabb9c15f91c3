// `npm pack` runs this (prepack): compiles src/ to dist/ as JavaScript and declarations, so
// the package works on any Node from 20 and in any TypeScript project, without type
// stripping. TypeScript rewrites the source's relative `.ts` imports to `.js` in the
// JavaScript but not in the declarations, so they are rewritten here; the generated
// schema.d.ts, which tsc does not copy, is copied.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(root, 'dist');
fs.rmSync(dist, { recursive: true, force: true });
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });
fs.copyFileSync(path.join(root, 'src', 'schema.d.ts'), path.join(dist, 'schema.d.ts'));
for (const file of fs.readdirSync(dist).filter((name) => name.endsWith('.d.ts') && name !== 'schema.d.ts')) {
  const target = path.join(dist, file);
  const text = fs
    .readFileSync(target, 'utf8')
    .replace(/(["'])(\.\.?\/[^"']+?)\.ts\1/g, (_, quote, stem) =>
      stem.endsWith('.d') ? `${quote}${stem.slice(0, -2)}.js${quote}` : `${quote}${stem}.js${quote}`,
    );
  fs.writeFileSync(target, text);
}
