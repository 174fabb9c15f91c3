// The configuration table of docs/operations.md ("Configuration") lists exactly the variables
// src/config.ts reads: a variable the code reads but the table leaves out is a setting nobody
// can find, and one the table lists but the code ignores is a setting that does nothing.
// Reads the page and calls loadConfig; no server.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { readText } from './support/markdown.ts';

/** Every name loadConfig looks up, found by handing it an environment that records each read. */
function variablesConfigReads(): string[] {
  const read = new Set<string>();
  const env = new Proxy<Record<string, string | undefined>>(
    {},
    {
      get(_target, name) {
        if (typeof name === 'string') read.add(name);
        return undefined;
      },
    },
  );
  loadConfig(env);
  return [...read].sort();
}

function variablesOfTheTable(): string[] {
  const section = readText('docs/operations.md')
    .split(/^## /m)
    .find((part) => part.startsWith('Configuration\n'));
  if (section === undefined) throw new Error('docs/operations.md has no "Configuration" section');
  return [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]!).sort();
}

describe('the configuration table', () => {
  it('lists every variable config.ts reads, and nothing else', () => {
    const read = variablesConfigReads();
    expect(read).toContain('DATABASE_URL');
    expect(variablesOfTheTable()).toEqual(read);
  });
});
