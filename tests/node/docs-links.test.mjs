// README.md and docs/*.md: every relative link and image points at a file of the repository (and
// an anchor at a heading of that file), the README stays a short front page, and its contents
// list reaches every page in docs/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'docs', f));
const PAGES = [join(ROOT, 'README.md'), ...DOCS];
const README_MAX_LINES = 128;  // 120 until issue 45 added the one-file pages and the notebook

// The markdown text outside fenced code blocks, with inline code spans blanked (a `[x](y)` inside
// backticks is an example, not a link).
function proseOf(markdown) {
  let fenced = false;
  const lines = [];
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) { fenced = !fenced; continue; }
    if (!fenced && !/^( {4}|\t)/.test(line)) lines.push(line.replace(/`[^`]*`/g, '``'));
  }
  return lines.join('\n');
}

// Every link and image target of a markdown text: [{ target, text }] (the target without a title).
function linksOf(markdown) {
  const prose = proseOf(markdown);
  return [...prose.matchAll(/!?\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map((m) => ({ text: m[1], target: m[2] }));
}

// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
function slugOf(heading) {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

// The anchors of a markdown file's headings (repeats get -1, -2, … as on GitHub).
function anchorsOf(markdown) {
  const seen = new Map();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const slug = slugOf(m[1]);
    seen.set(slug, (seen.get(slug) ?? -1) + 1);
    if (seen.get(slug) > 0) seen.set(`${slug}-${seen.get(slug)}`, 0);
  }
  return new Set(seen.keys());
}

// What is wrong with one relative target of `page`, or null when it resolves.
function problemOf(page, target) {
  const [path, anchor] = target.split('#');
  const file = path === '' ? page : join(dirname(page), decodeURIComponent(path));
  if (!existsSync(file)) return `${target}: ${relative(ROOT, file)} does not exist`;
  if (anchor === undefined || !file.endsWith('.md')) return null;
  return anchorsOf(readFileSync(file, 'utf8')).has(anchor) ? null : `${target}: no heading #${anchor} in ${relative(ROOT, file)}`;
}

test('the link parser sees links and images, not code', () => {
  const md = 'a [x](a.md) ![p](i.png "t") `[no](c.md)`\n```\n[no](d.md)\n```\n[y](#h)';
  assert.deepEqual(linksOf(md).map((l) => l.target), ['a.md', 'i.png', '#h']);
  assert.equal(slugOf("Web components: `<attnx-explorer>` and `<attnx-lab>`"), 'web-components-attnx-explorer-and-attnx-lab');
  assert.equal(slugOf("Importing a model's attention head"), 'importing-a-models-attention-head');
  assert.equal(slugOf('Use the core from C++'), 'use-the-core-from-c');
  assert.deepEqual([...anchorsOf('# A\n## A\n```\n# B\n```')], ['a', 'a-1']);
});

for (const page of PAGES) {
  test(`${relative(ROOT, page)}: every relative link and image resolves`, () => {
    const links = linksOf(readFileSync(page, 'utf8')).filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target));
    const problems = links.map((l) => problemOf(page, l.target)).filter(Boolean);
    assert.deepEqual(problems, []);
  });
}

test(`README.md is a front page of at most ${README_MAX_LINES} lines with one picture`, () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  assert.ok(readme.split('\n').length <= README_MAX_LINES, `README.md has ${readme.split('\n').length} lines`);
  const images = [...proseOf(readme).matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]);
  assert.deepEqual(images, ['docs/explorer.png']);
});

test('the README links every page in docs/', () => {
  const targets = new Set(linksOf(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((l) => l.target.split('#')[0]));
  const missing = DOCS.map((f) => relative(ROOT, f)).filter((f) => !targets.has(f));
  assert.deepEqual(missing, []);
});
