// The README and docs/ stay one connected, true set of pages: every relative link and #anchor
// resolves to a file and a heading as GitHub renders them, and every section a comment, a
// message or a page cites by name ("docs/personal-data.md" and a quoted heading) exists
// where it is cited (a heading's closing parenthesis may be left out of a citation:
// "Retrying safely" names "Retrying safely (Idempotency-Key)"). Reads files only; no server.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  anchorsOf,
  filesUnder,
  headingsOf,
  readText,
  relativeLinksOf,
  ROOT,
  sectionCitationsOf,
} from './support/markdown.ts';

const pages = ['README.md', ...filesUnder('docs', (name) => name.endsWith('.md'))];
const isSource = (name: string) => /\.(ts|js|cjs|mjs|md)$/.test(name);
const citing = [
  ...pages,
  ...['src', 'test', 'bench', 'scripts', 'bin', 'clients/typescript/src'].flatMap((dir) => filesUnder(dir, isSource)),
  'clients/typescript/README.md',
];

describe('links in README.md and docs/', () => {
  it('finds the pages and their links', () => {
    expect(pages).toContain('docs/api.md');
    expect(relativeLinksOf(readText('README.md')).length).toBeGreaterThan(10);
  });

  it.each(pages)('%s: every relative link names a file and a heading that exist', (page) => {
    const broken: string[] = [];
    for (const link of relativeLinksOf(readText(page))) {
      const [file = '', anchor] = link.split('#');
      const target = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
      if (target.startsWith('..') || !fs.existsSync(path.join(ROOT, target))) {
        broken.push(`${link}: no file ${target}`);
      } else if (anchor !== undefined && !anchorsOf(readText(target)).has(decodeURIComponent(anchor))) {
        broken.push(`${link}: no heading with anchor #${anchor} in ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('files named in README.md and docs/', () => {
  // A measurement report names the files as they were at the revision it measured.
  const describing = pages.filter((page) => !/^docs\/(benchmarks[\w-]*|push-profile)\.md$/.test(page));

  it.each(describing)('%s: every repository path in a code span exists', (page) => {
    const named = [...readText(page).matchAll(/`((?:src|test|bench|scripts|docs|clients|samples|bin)\/[^`\s]*)`/g)];
    const missing = named.map((match) => match[1]!).filter((file) => !fs.existsSync(path.join(ROOT, file)));
    expect(missing).toEqual([]);
  });
});

describe('sections cited by name', () => {
  it('finds citations in code and pages', () => {
    const all = citing.flatMap((file) => sectionCitationsOf(readText(file)));
    expect(all.filter((citation) => citation.page !== 'docs/design.md').length).toBeGreaterThan(30);
  });

  it('names a heading of the page it cites, in every file', () => {
    const broken: string[] = [];
    for (const file of citing) {
      for (const { page, section } of sectionCitationsOf(readText(file))) {
        const headings = fs.existsSync(path.join(ROOT, page)) ? headingsOf(readText(page)) : [];
        const found = section.endsWith('.')
          ? headings.some((heading) => heading.startsWith(`${section} `))
          : headings.some((heading) => heading === section || heading.replace(/\s*\([^)]*\)$/, '') === section);
        if (!found) broken.push(`${file}: ${page}, "${section}"`);
      }
    }
    expect(broken).toEqual([]);
  });
});
