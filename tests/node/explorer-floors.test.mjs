// The explorer's SPEC §9 floor lines (web/explorer/floors.js): the module's numbers, worded with
// the page's formatters and the schema's meanings. Hand values: SPEC §9.2's example (Λ = 5,
// τ = 0.1, n = L = 1024: D_Λ = ln 1024 / ln(1 + 10/ln 10) = 4.136) and §9.3's (L = 1024, k = 2:
// log2 C(1024, 2) = log2 523776 = 18.9986 bits, log2(1024!)/2048 = 4.2817 bits).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadBoth } from './helpers.mjs';
import { floorFacts, packingFact, bitsFact, boundField } from '../../web/explorer/floors.js';

const { simd: api } = await loadBoth();
const schema = api.schema();

test('record fields of schema keys', () => {
  assert.equal(boundField('bits_fixed_keys'), 'bitsFixedKeys');
  assert.equal(boundField('d_lambda'), 'dLambda');
  assert.equal(boundField('ratio'), 'ratio');
});

test('the packing floor of SPEC 9.2\'s example, as the module computes it', () => {
  const f = api.bounds({ L: 1024, k: 2, tau: 0.1, logitScale: 5 });
  assert.ok(Math.abs(f.dLambda - Math.log(1024) / Math.log(1 + 10 / Math.log(10))) < 1e-12);
  assert.ok(Math.abs(f.dLambda - 4.136) < 5e-4);
  const b = { dLambda: f.dLambda, logitScale: 5, ratio: 40 / f.dLambda, columnSupports: 1024 };
  const fact = packingFact(b, 40, schema.bounds);
  assert.equal(fact.value, f.dLambda);
  assert.equal(fact.text, '4.14');
  assert.equal(fact.sentence, 'The floor at this logit scale (Λ = 5) is D_Λ = 4.14; this X uses D = 40, 9.67 times it.');
  assert.equal(fact.meaning, schema.bounds.d_lambda.help);
  assert.match(fact.meaning, /ln n \/ ln\(1 \+ 2Λ\/Δ\)/);
  assert.equal(fact.name, 'floor at this logit scale D_Λ');
});

test('the packing floor\'s edges: unknown, none (n = 1), no X (infinite)', () => {
  assert.match(packingFact({ dLambda: null, logitScale: null }, 8, schema.bounds).sentence, /not known/);
  const none = packingFact({ dLambda: 0, logitScale: 2, ratio: null, columnSupports: 1 }, 8, schema.bounds);
  assert.equal(none.text, '0');
  assert.match(none.sentence, /No floor at this logit scale \(Λ = 2\).*n = 1/);
  assert.match(packingFact({ dLambda: Infinity, logitScale: 0 }, 8, schema.bounds).sentence, /No X of this logit scale/);
});

test('the bits floors of SPEC 9.3\'s examples, and which one holds is the schema\'s', () => {
  const f = api.bounds({ L: 1024, k: 2 });
  assert.ok(Math.abs(f.bitsFixedKeys - Math.log2(1024 * 1023 / 2)) < 1e-9);
  assert.ok(Math.abs(f.bitsFixedKeys - 18.9986) < 5e-5);
  assert.ok(Math.abs(f.bitsFreeKeys - 4.2817) < 5e-5);
  const lp = schema.constructions.find((c) => c.name === 'lp');
  const moment = schema.constructions.find((c) => c.name === 'moment');
  assert.equal(lp.bitsFloor, 'bits_fixed_keys');
  assert.equal(moment.bitsFloor, 'bits_free_keys');
  const b = { bitsFixedKeys: f.bitsFixedKeys, bitsFreeKeys: f.bitsFreeKeys, bitsPerNumber: 48 };
  const fixed = bitsFact(b, 22, lp, schema.bounds);
  assert.equal(fixed.text, 'D·w ≥ 18.999');
  assert.equal(fixed.value, f.bitsFixedKeys);
  assert.equal(fixed.meaning, schema.bounds.bits_fixed_keys.help);
  const free = bitsFact(b, 4, moment, schema.bounds);
  assert.equal(free.text, 'D·w ≥ 4.2817');
  assert.equal(free.sentence, `The bits floor is D·w ≥ 4.2817 bits; this X has D = 4 and w = 48 bits per input number.`);
  assert.equal(free.name, schema.bounds.bits_free_keys.label);
});

test('floorFacts of real results: moment and lp bring w, jl only the packing floor until its report', () => {
  const moment = api.construct({ L: 64, construction: 'moment' });
  const [pack, bits] = floorFacts(moment, schema);
  assert.equal(pack.value, moment.bounds.dLambda);
  assert.ok(pack.sentence.includes(`D = ${moment.d},`));
  assert.equal(bits.floorKey, 'bits_free_keys');
  assert.equal(bits.value, moment.bounds.bitsFreeKeys);
  assert.ok(bits.sentence.includes(`w = ${moment.bounds.bitsPerNumber} bits`));
  const jl = api.construct({ L: 64, d: 600, seed: 3 });
  assert.equal(jl.bounds.bitsPerNumber, null);
  assert.equal(floorFacts(jl, schema).length, 1);
  const report = api.precision({ L: 64, d: 600, seed: 3 });
  assert.equal(report.bounds.dLambda, jl.bounds.dLambda, 'the same X');
  const withW = floorFacts(jl, schema, report.bounds);
  assert.equal(withW.length, 2);
  assert.equal(withW[1].floorKey, 'bits_fixed_keys');
  assert.ok(withW[1].sentence.includes(`w = ${report.bounds.bitsPerNumber} bits`));
});
