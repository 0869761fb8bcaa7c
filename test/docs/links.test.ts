import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

/**
 * Every relative link of the README and of docs/ leads somewhere: the file exists and, for a link
 * to a heading (`page.md#heading`), the page has that heading, as GitHub anchors it.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function markdownFiles(): string[] {
  const docs = join(ROOT, 'docs');
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return walk(path);
      return name.endsWith('.md') ? [path] : [];
    });
  return [join(ROOT, 'README.md'), ...walk(docs)];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped but `-` and `_`, spaces as `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of withoutCode.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = anchorOf(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The relative links of a page (inline links and images), outside code blocks and code spans. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/i.test(target));
}

describe('documentation links', () => {
  const files = markdownFiles();

  it('finds the README and the pages of docs/', () => {
    expect(files.map((f) => relative(ROOT, f))).toEqual(expect.arrayContaining(['README.md', 'docs/reference.md', 'docs/operations.md']));
  });

  for (const file of files) {
    it(`${relative(ROOT, file)}: every relative link resolves`, () => {
      const broken: string[] = [];
      for (const link of linksOf(readFileSync(file, 'utf8'))) {
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path === '' ? file : join(dirname(file), decodeURIComponent(path));
        if (!existsSync(target)) {
          broken.push(`${link}: no such file`);
          continue;
        }
        if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) {
          broken.push(`${link}: no such heading`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});
