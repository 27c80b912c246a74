#!/usr/bin/env node
// Renders the pages of web/ (index.html, lab.html) into a site folder: each page is a template
// that sets its values and includes the one shell both pages share (web/shell/: head, header,
// loading hint, footer).
//
//   <!--#set name -->value, any text, several lines<!--#end -->   a value of this page
//   <!--#include head.html -->                                    a file of web/shell/
//   {{name}}                                                      a value, in a page or a shell file
//
// A value used but not set, or set but never used, is an error (exit status 1), as is an include
// of a file that does not exist: a page cannot silently lose a part of its shell.
//   node scripts/build-pages.mjs OUTDIR        (writes OUTDIR/index.html and OUTDIR/lab.html)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const PAGES = ['index.html', 'lab.html'];
const SET = /<!--#set ([\w-]+) -->([\s\S]*?)<!--#end -->\n?/g;
const INCLUDE = /<!--#include ([\w.-]+) -->/g;
const VALUE = /\{\{([\w-]+)\}\}/g;

/** The page template `text` rendered with the shell files in shellDir. Throws naming the problem. */
export function renderPage(text, shellDir, name = 'page') {
  const values = new Map();
  const body = text.replace(SET, (m, key, value) => {
    if (values.has(key)) throw new Error(`${name}: "${key}" is set twice`);
    values.set(key, value);
    return '';
  });
  const included = body.replace(INCLUDE, (m, file) => readFileSync(join(shellDir, file), 'utf8'));
  const used = new Set();
  const out = included.replace(VALUE, (m, key) => {
    if (!values.has(key)) throw new Error(`${name}: {{${key}}} is used but not set`);
    used.add(key);
    return values.get(key);
  });
  for (const key of values.keys()) if (!used.has(key)) throw new Error(`${name}: "${key}" is set but never used`);
  return out;
}

function main() {
  const outdir = resolve(process.argv[2] || join(ROOT, 'dist'));
  for (const page of PAGES) {
    const text = readFileSync(join(ROOT, 'web', page), 'utf8');
    writeFileSync(join(outdir, page), renderPage(text, join(ROOT, 'web', 'shell'), page));
  }
  console.log(`build-pages: ${PAGES.join(', ')} rendered into ${outdir}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (e) {
    console.error(`build-pages: ${e.message}`);
    process.exit(1);
  }
}
