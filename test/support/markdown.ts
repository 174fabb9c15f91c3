// Reads the project's Markdown as GitHub renders it, for the tests that keep README.md and
// docs/*.md true: its headings and their anchors, its relative links, and the citations of a
// page's section ("docs/api.md" then a quoted heading) that code and pages make.
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The lines outside fenced code blocks: a `# comment` in a shell example is no heading. */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** A heading's text as GitHub shows it: code spans, links and emphasis reduced to their text. */
function plainText(inline: string): string {
  return inline
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_)(\S(?:.*?\S)?)\1/g, '$2')
    .trim();
}

export function headingsOf(markdown: string): string[] {
  return proseLines(markdown).flatMap((line) => {
    const match = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    return match ? [plainText(match[1]!)] : [];
  });
}

/**
 * GitHub's anchor for a heading (its github-slugger): lower case, every character that is not
 * a letter, mark, digit, connector, space or hyphen dropped, spaces turned into hyphens; a
 * repeated slug gets `-1`, `-2`, ... in document order.
 */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const heading of headingsOf(markdown)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Relative link targets (`[text](target)`, `![alt](target)`, `<img src>`, `<a href>`), code left out. */
export function relativeLinksOf(markdown: string): string[] {
  const prose = proseLines(markdown)
    .join('\n')
    .replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!),
    ...[...prose.matchAll(/<(?:img|a)\s[^>]*?(?:src|href)="([^"]+)"/g)].map((match) => match[1]!),
  ];
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** A cited section: the page (README.md or docs/x.md) and the heading named in quotes. */
export interface SectionCitation {
  readonly page: string;
  readonly section: string;
}

/**
 * Citations of a section by its heading in double quotes after the page: a docs page with
 * its `.md` (a comma or an opening parenthesis between), or the README with or without `.md`
 * or `'s`, also when a comment wraps them over two lines. Sections of docs/design.md are
 * cited by number ("section N") and come back as "N.", which the heading starts with.
 */
export function sectionCitationsOf(text: string): SectionCitation[] {
  const joined = text.replace(/[ \t]*\n[ \t]*(?:\/\/+ ?|\* ?|#+ )?/g, ' ');
  const quoted = [...joined.matchAll(/\b(README(?:\.md)?|docs\/[\w.-]+\.md)(?:'s)?,?\s*\(?"([^"]{1,100})"/g)].map(
    (match) => ({ page: match[1]!.startsWith('README') ? 'README.md' : match[1]!, section: match[2]! }),
  );
  const numbered = [...joined.matchAll(/\bdocs\/design\.md,? sections? (\d+)\b/g)].map((match) => ({
    page: 'docs/design.md',
    section: `${match[1]}.`,
  }));
  return [...quoted, ...numbered];
}

/** Every file under `dir` (relative to the root) whose name passes `keep`, node_modules left out. */
export function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, relative), { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(child);
      } else if (keep(entry.name)) found.push(child);
    }
  };
  walk(dir);
  return found;
}

export function readText(relative: string): string {
  return fs.readFileSync(path.join(ROOT, relative), 'utf8');
}
