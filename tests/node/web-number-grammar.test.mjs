// Issue 27.7: one number grammar for flags, attributes and links. The pages read numbers with the
// core's grammar (schema.numberGrammar) as written, never trimmed: an explorer attribute d=" 64 "
// and a lab attribute ls=" 64 " are refused alike, with the note the CLI gives ("numbers are
// written without spaces"), and the other settings still apply. The lab's form alone forgives
// spaces around its text and its commas (typing), never inside a number.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { load } from '../../web/lib/attnx.js';
import { explorerTable } from '../../web/explorer/state.js';
import { labTable, checkField } from '../../web/lab/settings.js';
import { parseHash, parseField } from '../../web/common/hashstate.js';
import { numberGrammar } from '../../web/common/schema-table.js';
import { readAttributes } from '../../web/embed/attributes.js';
import { labHash } from '../../web/embed/lab-frame.js';
import { requireBuilds } from './helpers.mjs';

let schema, explorer, lab;

before(async () => {
  requireBuilds();
  schema = (await load({ flavour: 'simd' })).schema();
  explorer = explorerTable(schema);
  lab = labTable(schema);
});

test('the schema publishes the core grammar; every numeric field of both tables reads by it', () => {
  const g = numberGrammar(schema);
  // Hand-checked texts (the grammar of attnx/number_grammar.hpp: JSON numbers, no plus, no
  // leading zeros, no spaces).
  for (const ok of ['0', '16', '-3']) assert.ok(g.int.test(ok), ok);
  for (const no of ['016', '+16', '-0', ' 64', '64 ', '3.0', '1e3', '']) assert.ok(!g.int.test(no), no);
  for (const ok of ['0.5', '1e-7', '1E+2', '-2.5']) assert.ok(g.number.test(ok), ok);
  for (const no of ['.5', '5.', '+1', '01', 'NaN', 'Infinity', '0x10']) assert.ok(!g.number.test(no), no);
  assert.ok(g.intList.test('16,32,64') && !g.intList.test('16, 32') && !g.intList.test('16,'));
  for (const t of [explorer, lab]) {
    for (const [name, f] of Object.entries(t)) {
      if (['int', 'number', 'intList'].includes(f.type)) assert.ok(f.grammar, `${name} carries the grammar`);
    }
  }
});

test('link values are read as written: spaces, plus signs, leading zeros, -0, .5 and 5. are refused, saying why', () => {
  const cases = [
    ['d', ' 64 ', 'd must be an integer from 1 to', 'numbers are written without spaces'],
    ['d', '+64', 'd must be an integer from 1 to', 'numbers are written without a plus sign'],
    ['L', '016', 'L must be an integer from 2 to', 'numbers are written without leading zeros'],
    ['eps', '.5', 'eps must be a number in', 'numbers are written with a digit on each side of the point (0.5, not .5 or 5.)'],
    ['eps', '5.', 'eps must be a number in', 'numbers are written with a digit on each side of the point (0.5, not .5 or 5.)'],
    ['seed', '-0', 'seed must be an integer from 0 to', 'zero is written 0, without a minus sign'],
    ['L', 'sixty', 'L must be an integer from 2 to', null],
  ];
  for (const [name, text, range, note] of cases) {
    const e = parseField(name, explorer[name], text).error;
    assert.ok(e?.startsWith(range), `${name}="${text}": ${e}`);
    if (note) assert.ok(e.endsWith(`(got "${text}"; ${note})`), e);
    else assert.ok(e.endsWith(`(got "${text}")`), e);
  }
  assert.deepEqual(parseField('eps', explorer.eps, '1E-1'), { value: 0.1 });
  // In a link a "+" is a plus sign, never a space: box=1e+09 is the largest box, d=+64 is refused
  // as a plus sign (URLSearchParams alone would read "1e 09" and " 64").
  const opts = { page: 'explorer', schema };
  const box = parseHash(explorer, '#v=2&construction=lp&d=16&box=1e+09', opts);
  assert.deepEqual([box.errors, box.state.box], [[], 1e9]);
  assert.match(parseHash(explorer, '#v=2&d=+64', opts).errors[0], /\(got "\+64"; numbers are written without a plus sign\)$/);
  assert.match(parseHash(explorer, '#v=2&d=%2064', opts).errors[0], /\(got " 64"; numbers are written without spaces\)$/);
  assert.deepEqual(parseField('d', explorer.d, '64'), { value: 64 });
});

test('explorer attribute d=" 64 " and lab attribute ls=" 64 " are refused alike; the other settings apply', () => {
  const ex = readAttributes(Object.entries({ l: '32', d: ' 64 ', eps: '0.5' }), { table: explorer, schema });
  assert.equal(ex.errors.length, 1);
  assert.match(ex.errors[0], /^d must be an integer from 1 to \d+ \(got " 64 "; numbers are written without spaces\)/);
  assert.deepEqual([ex.state.L, ex.state.eps], [32, 0.5]);
  const h = labHash([['ls', ' 64 '], ['trials', '3']], lab);
  const r = parseHash(lab, h, { page: 'lab', schema });
  assert.equal(r.errors.length, 1);
  assert.match(r.errors[0], /^Ls must be comma-separated integers from \d+ to \d+, at most \d+ of them \(got " 64 "; numbers are written without spaces\)/);
  assert.equal(r.state.trials, 3);
  assert.equal(r.state.Ls, lab.Ls.def);
  assert.match(parseHash(lab, '#v=2&Ls=16,032', { page: 'lab', schema }).errors[0], /leading zeros\)/);
});

test('the lab form forgives spaces around its text and its commas, never inside a number', () => {
  const st = Object.fromEntries(Object.entries(lab).map(([k, f]) => [k, f.def]));
  assert.deepEqual(checkField(lab, st, 'Ls', ' 16, 32 ,64 '), { value: '16,32,64' });
  assert.deepEqual(checkField(lab, st, 'trials', ' 3 '), { value: 3 });
  assert.match(checkField(lab, st, 'Ls', '6 4').error, /^Ls must be .*\(got "6 4"; numbers are written without spaces\)/);
  assert.match(checkField(lab, st, 'Ls', '+16').error, /plus sign\)$/);
});
