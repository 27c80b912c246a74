// Hardening of the pages' DOM-free modules (issue 9, items 4 and 5): hashes longer than any link
// of the page are refused before parsing with a message naming the limit; the longest link the
// explorer writes (a custom pattern of schema.pageLimits.maxNnzLink nonzeros with the longest
// weights) fits the limit and reads back; hostile keys are reported on both pages; no call in
// web/ spreads a list into its arguments (a long list overflows the stack).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { load } from '../../web/lib/attnx.js';
import { parseHash, toHash, defaults, maxHashLength, hashLengthError } from '../../web/common/hashstate.js';
import { explorerTable, linkTextLimits, customLinkFields } from '../../web/explorer/state.js';
import { CustomPattern } from '../../web/explorer/custom-pattern.js';
import { numberGrammar } from '../../web/common/schema-table.js';
import { labTable } from '../../web/lab/settings.js';
import { readLink } from '../../web/lab/link.js';
import { importResult } from '../../web/lab/files.js';
import { ROOT, requireBuilds } from './helpers.mjs';

let schema, exTable, labT;
const exOpts = () => ({ page: 'explorer', schema });

before(async () => {
  requireBuilds();
  schema = (await load()).schema();
  exTable = explorerTable(schema);
  labT = labTable(schema);
});

test('a hash longer than any link is refused before parsing, naming its length and the limit', () => {
  const max = maxHashLength(exTable);
  for (const hash of [`#${'x&'.repeat(130000)}`, `#${'x=1&'.repeat(262144)}`, `#L=64&${'a'.repeat(max)}`]) {
    const n = hash.length - 1;
    const r = parseHash(exTable, hash, exOpts());
    assert.deepEqual(r.errors, [`the link is ${n} characters long; links of this page have at most ${max}, so none of its settings were read`]);
    assert.equal(r.version, null);
    assert.deepEqual(r.state, defaults(exTable));
    assert.deepEqual([r.refused, r.read.size], [true, 0], 'refused whole, nothing read');
  }
  // The lab refuses it before anything else (its preset expansion included) and says so.
  const lab = readLink(schema, labT, `#preset=paper&${'Ls=16&'.repeat(200000)}`);
  assert.equal(lab.tooLong, true);
  assert.equal(lab.state, null);
  assert.match(lab.errors[0], new RegExp(`^the link is 1200013 characters long; links of this page have at most ${maxHashLength(labT)},`));
  // One character less than the limit is parsed (here: an element id, no link).
  assert.equal(hashLengthError(exTable, `#${'a'.repeat(max)}`), null);
  assert.deepEqual(parseHash(exTable, `#${'a'.repeat(max)}`, exOpts()).errors, []);
});

test('the limits follow from the schema: cp/cw sizes from maxNnzLink and maxL', () => {
  const { maxNnzLink, maxL } = schema.pageLimits;
  const lim = linkTextLimits(schema);
  assert.equal(exTable.cp.maxLength, lim.cp);
  assert.equal(exTable.cw.maxLength, lim.cw);
  // A weight is at most 24 characters ("-1.7976931348623157e+308") and "_"; an offset is at most
  // the sign and the base-36 digits of maxL, plus "." (and as much again for the row's "_*n").
  assert.equal(lim.cw, maxNnzLink * 25);
  assert.equal(lim.cp, maxNnzLink * 2 * ((-maxL).toString(36).length + 1));
  // Changing the schema's page limits changes the link limits (nothing is fixed in web/).
  const s2 = structuredClone(schema);
  s2.pageLimits.maxNnzLink = maxNnzLink * 2;
  assert.ok(maxHashLength(explorerTable(s2)) > maxHashLength(exTable));
});

// A custom pattern of exactly maxNnzLink nonzeros: L = maxNnzLink / 2 rows of two entries at the
// far ends (long offsets, no repeated rows) with 23-character weights.
function longestLinkPattern(maxNnz) {
  const L = maxNnz / 2;
  const rows = [], cols = [], vals = [];
  for (let i = 0; i < L; i++) {
    for (const j of [i === 0 ? 1 : 0, i === L - 1 ? L - 2 : L - 1]) {
      rows.push(i);
      cols.push(j);
      vals.push(Number(`1.${String(1234567890123456 + i * 7919 + j).padStart(16, '0')}e-${100 + (i % 200)}`));
    }
  }
  return CustomPattern.fromTriplets(L, rows, cols, vals);
}

test('the longest link the explorer writes fits the limit and reads back exactly', () => {
  const { maxNnzLink } = schema.pageLimits;
  const p = longestLinkPattern(maxNnzLink);
  assert.equal(p.nnz, maxNnzLink);
  const enc = p.encode();
  assert.ok(enc.cw.length <= exTable.cw.maxLength && enc.cp.length <= exTable.cp.maxLength);
  const st = { ...defaults(exTable), pattern: 'custom', L: p.L, ...enc, scale: 'lin', row: p.L - 1, help: false };
  const hash = toHash(exTable, st, exOpts());
  assert.ok(hash.length <= maxHashLength(exTable), `${hash.length} > ${maxHashLength(exTable)}`);
  const r = parseHash(exTable, hash, exOpts());
  assert.deepEqual(r.errors, []);
  const back = CustomPattern.decode(r.state.L, r.state.cp, r.state.cw, maxNnzLink, numberGrammar(schema).number);
  assert.deepEqual(back.pattern.toTriplets(), p.toTriplets());
});

// A StatusView stand-in recording the messages of each group.
test('a pattern beyond maxNnzLink is left out of the link, with a note saying so', () => {
  const max = schema.pageLimits.maxNnzLink;
  const L = max / 2 + 1;
  const big = CustomPattern.identity(L);
  for (let i = 0; i < L; i++) big.rows[i].set((i + 1) % L, 2);  // 2 L = max + 2 nonzeros
  const st = { ...defaults(exTable), pattern: 'custom', L };
  const f = customLinkFields(schema, st, big);
  assert.deepEqual([f.cp, f.cw], ['', '']);
  assert.equal(f.note, `This custom pattern has ${max + 2} nonzeros; links hold at most ${max}, so "Copy link" will not include it (export it as JSON instead).`);
  assert.ok(toHash(exTable, { ...st, cp: f.cp, cw: f.cw }, exOpts()).length < 1000);
  // At the limit it is carried; a generated family carries none.
  const ok = longestLinkPattern(max);
  const st2 = { ...defaults(exTable), pattern: 'custom', L: ok.L };
  const f2 = customLinkFields(schema, st2, ok);
  assert.notEqual(f2.cp, '');
  assert.equal(f2.note, null);
  assert.deepEqual(customLinkFields(schema, { ...st2, pattern: 'window' }, ok), { cp: '', cw: '', note: null });
});

test('hostile keys on both pages: prototype names unknown, repeats reported, nothing polluted', () => {
  const hostile = '#__proto__=1&constructor=1&hasOwnProperty=1&__proto__%5Bx%5D=1&trials=5&trials=6';
  const lab = readLink(schema, labT, hostile);
  assert.deepEqual(lab.errors, [
    'unknown setting "__proto__" in the link',
    'unknown setting "constructor" in the link',
    'unknown setting "hasOwnProperty" in the link',
    'unknown setting "__proto__[x]" in the link',
    'setting "trials" appears 2 times in the link; the first value is used',
  ]);
  assert.equal(lab.state.trials, 5);
  const ex = parseHash(exTable, '#constructor=1&__proto__=1', exOpts());
  assert.deepEqual(ex.errors, ['unknown setting "constructor" in the link', 'unknown setting "__proto__" in the link']);
  assert.equal(Object.getPrototypeOf(ex.state), Object.prototype);
  assert.equal({}.x, undefined);
  // Thousands of distinct bad keys within the limit: one message each, no exception.
  const many = `#${Array.from({ length: 20000 }, (_, i) => `k${i}=1`).join('&')}`;
  assert.ok(many.length < maxHashLength(exTable));
  assert.equal(parseHash(exTable, many, exOpts()).errors.length, 20000);
});

// The JavaScript files of web/ (without the generated web/wasm/).
function webSources(dir = join(ROOT, 'web')) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'wasm') for (const f of webSources(p)) out.push(f);
    } else if (name.endsWith('.js')) out.push(p);
  }
  return out;
}

// The code of a JavaScript source with comments, strings and template text blanked (template
// substitutions kept), so brackets and "..." can be matched. A rough lexer: enough for web/.
function codeOnly(src) {
  let out = '';
  const stack = [];  // '`' inside a template's text, '{' inside code (a substitution's braces)
  for (let i = 0; i < src.length; i++) {
    const c = src[i], inTemplate = stack[stack.length - 1] === '`';
    if (inTemplate) {
      if (c === '\\') { i++; out += '  '; } else if (c === '`') { stack.pop(); out += c; } else if (c === '$' && src[i + 1] === '{') { stack.push('{'); out += '${'; i++; } else out += ' ';
      continue;
    }
    if (c === '/' && src[i + 1] === '/') { while (i < src.length && src[i] !== '\n') i++; out += '\n'; continue; }
    if (c === '/' && src[i + 1] === '*') { const e = src.indexOf('*/', i + 2); out += ' '.repeat(e + 2 - i); i = e + 1; continue; }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      out += `${c}${' '.repeat(j - i - 1)}${c}`;
      i = j;
      continue;
    }
    if (c === '`') stack.push('`');
    else if (c === '{' && stack.length) stack.push('{');
    else if (c === '}' && stack[stack.length - 1] === '{') stack.pop();
    out += c;
  }
  return out;
}

// Positions of "..." spread into a call's arguments (not a rest parameter of a definition).
function callSpreads(code) {
  const found = [];
  const open = [];
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if ('([{'.includes(c)) open.push(i);
    else if (')]}'.includes(c)) open.pop();
    else if (code.startsWith('...', i) && code[open[open.length - 1]] === '(') {
      let depth = 0, j = i;
      for (; j < code.length; j++) {
        if (code[j] === '(') depth++;
        else if (code[j] === ')' && depth-- === 0) break;
      }
      if (!/^\s*(\{|=>)/.test(code.slice(j + 1, j + 40))) found.push(i);
      i += 2;
    }
  }
  return found;
}

test('no call in web/ spreads a list into its arguments (long lists overflow the stack)', () => {
  // The scanner finds what it should (an independent check of the checker).
  assert.deepEqual(callSpreads(codeOnly('f(...a); g(1, ...b.map((x) => x));')).length, 2);
  assert.deepEqual(callSpreads(codeOnly('function h(a, ...rest) {} const k = (...xs) => xs; m(`${[...a]}`, "...", [...b], { ...c });')), []);
  const bad = [];
  for (const file of webSources()) {
    const code = codeOnly(readFileSync(file, 'utf8'));
    for (const pos of callSpreads(code)) bad.push(`${file.slice(ROOT.length)}:${code.slice(0, pos).split('\n').length}`);
  }
  assert.deepEqual(bad, []);
});

test('an imported (sorted) pattern is kept as triplets until edited; copies stay independent', () => {
  const rows = [0, 0, 1, 2, 2], cols = [0, 2, 1, 0, 2], vals = [1, 0.5, 0, 2, 3];
  const p = CustomPattern.fromTriplets(3, rows, cols, vals);
  assert.equal(p.nnz, 4);
  const t = p.toTriplets();
  assert.deepEqual([[...t.rows], [...t.cols], [...t.vals]], [[0, 0, 2, 2], [0, 2, 0, 2], [1, 0.5, 2, 3]]);
  t.vals[0] = 99;  // the caller owns the arrays it got
  assert.equal(p.toTriplets().vals[0], 1);
  const q = p.clone();
  assert.equal(p.set(1, 1, true), null);
  assert.deepEqual([p.nnz, q.nnz], [5, 4]);
  assert.equal(q.has(1, 1), false);
  assert.deepEqual([...p.toTriplets().cols], [0, 2, 1, 0, 2]);
  // Unsorted input and a repeated cell: the last weight is kept, output sorted.
  const u = CustomPattern.fromTriplets(2, [1, 0, 1], [1, 0, 1], [2, 1, 5]);
  assert.deepEqual([[...u.toTriplets().rows], [...u.toTriplets().vals]], [[0, 1], [1, 5]]);
  assert.deepEqual(u.encode(), CustomPattern.fromTriplets(2, [0, 1], [0, 1], [1, 5]).encode());
});

test('the lab refuses a result file over its byte limit before reading it', async () => {
  let read = 0, ran = 0;
  const file = { name: 'huge.json', size: 5000, text: async () => { read++; return '{}'; } };
  const pool = { run: async () => { ran++; return { points: [] }; } };
  await assert.rejects(importResult(pool, file, 4999), { message: 'huge.json: the file has 5000 bytes; a result file may have at most 4999' });
  assert.deepEqual([read, ran], [0, 0]);
  const rec = await importResult(pool, file, 5000);
  assert.deepEqual([read, ran, rec.fileName, rec.source], [1, 1, 'huge.json', 'import']);
});
