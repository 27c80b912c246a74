// attnx explorer: what the proven lower bounds of SPEC §9 say about the X shown, as text
// (DOM-free). Every number is the module's (construct()'s or precision()'s `bounds` record); the
// one-sentence meanings, labels and symbols are the core's (schema.bounds); which §9.3 floor holds
// for a construction is the core's too (schema.constructions[].bitsFloor). Nothing here computes
// a bound: this file only picks and words them, with the page's number formatters.
import { fmt, fmtInt } from './format.js';
import { constructionOf } from '../common/schema-table.js';

/** The field of a `bounds` record that holds the schema key `key` ("bits_fixed_keys" ->
 *  "bitsFixedKeys"): the module names record fields in camelCase, files and the schema in
 *  snake_case. */
export function boundField(key) {
  return key.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
}

// Significant digits of a bits floor (18.999, 4.2817): it is compared with small products D·w.
const BITS_DIGITS = 5;

const known = (v) => v !== null && v !== undefined && !Number.isNaN(v);

// A bound's name as the card shows it: the core's label and symbol ("floor at this logit scale D_Λ").
function nameOf(info) {
  return info.symbol && !info.label.includes(info.symbol) ? `${info.label} ${info.symbol}` : info.label;
}

/**
 * The packing floor of SPEC §9.2 at the X's own logit scale. b: the result's bounds record; D:
 * its hidden size (d, or moment's D); words: schema.bounds. Returns { key: 'dLambda', name,
 * value (D_Λ, unrounded; null: unknown), text (the value as shown), sentence, meaning }.
 */
export function packingFact(b, D, words) {
  const info = words.d_lambda;
  const f = b.dLambda, scale = b.logitScale;
  const base = { key: 'dLambda', name: nameOf(info), value: known(f) ? f : null, meaning: info.help };
  const at = known(scale) ? ` (Λ = ${fmt(scale)})` : '';
  if (!known(f)) return { ...base, text: '–', sentence: `The floor at this logit scale is not known${at}.` };
  if (f === Infinity) return { ...base, text: '∞', sentence: `No X of this logit scale${at} succeeds: its logits cannot be told apart.` };
  if (f === 0) return { ...base, text: '0', sentence: `No floor at this logit scale${at}: every column of A has the same rows (n = ${fmtInt(b.columnSupports)}), so no keys need telling apart.` };
  const times = known(b.ratio) ? `; this X uses D = ${fmtInt(D)}, ${fmt(b.ratio)} times it` : '';
  return { ...base, text: fmt(f), sentence: `The floor at this logit scale${at} is D_Λ = ${fmt(f)}${times}.` };
}

/**
 * The counting floor of SPEC §9.3 that holds for construction `info` (schema.constructions[]:
 * its bitsFloor key), against the X's D and w (bits per input number, bounds.bitsPerNumber).
 * Returns { key: 'bitsFloor', floorKey, name, value (the floor on D·w in bits), text, sentence,
 * meaning }, or null when the construction names no floor or the record lacks it.
 */
export function bitsFact(b, D, info, words) {
  const floorKey = info.bitsFloor;
  const w = words[floorKey];
  const f = floorKey ? b[boundField(floorKey)] : undefined;
  if (!w || !known(f)) return null;
  const uses = known(b.bitsPerNumber)
    ? `this X has D = ${fmtInt(D)} and w = ${fmtInt(b.bitsPerNumber)} bits per input number`
    : 'w, the bits per input number this X uses, comes with the precision report';
  return {
    key: 'bitsFloor', floorKey, name: `${w.label}`, value: f, text: `D·w ≥ ${fmt(f, BITS_DIGITS)}`,
    sentence: `The bits floor is D·w ≥ ${fmt(f, BITS_DIGITS)} bits; ${uses}.`, meaning: w.help,
  };
}

/**
 * The facts of SPEC §9 the metrics card shows beside d for result r (construct(): r.bounds, r.d,
 * r.construction) with the core's schema; `bounds` (optional) replaces r.bounds (a precision
 * report's, which carries w). The bits floor is shown once w is known (lp and moment always).
 * Returns [packingFact, bitsFact?].
 */
export function floorFacts(r, schema, bounds = r.bounds) {
  const info = constructionOf(schema, r.construction);
  const out = [packingFact(bounds, r.d, schema.bounds)];
  const bits = known(bounds.bitsPerNumber) ? bitsFact(bounds, r.d, info, schema.bounds) : null;
  if (bits) out.push(bits);
  return out;
}
