#!/usr/bin/env node
// The `lead-intake` command (package.json "bin"). Plain JavaScript so that any Node can
// read it and say clearly when it is not the Node 24 the TypeScript sources need.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `lead-intake: needs Node.js 24 or later (this is ${process.version}); ` +
      "run it through npm (npx lead-intake, npm exec lead-intake), which puts the project's Node 24 first on PATH\n",
  );
  process.exit(1);
}
const { main } = await import('../src/cli/main.ts');
const code = await main(process.argv.slice(2));
// On failure, exit at once: a half-started `serve` may still hold a database pool open.
if (code !== 0) process.exit(code);
