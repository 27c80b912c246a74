// attnx explorer: the d searches of the page, DOM-free: "Find the minimal d" (the core's minD,
// SPEC §4, on the worker pool) and "Play" (d swept upward through the page's own update path,
// one result at a time, until the verdict flips to success and a few steps beyond).
import { constructOptions, constructionOf } from './state.js';
import { DSLIDER } from './controls.js';

export const PLAY_FROM = 8;         // the first d Play shows
export const PLAY_PER_OCTAVE = 4;   // Play's steps per doubling of d (on the d slider's grid)
export const PLAY_AFTER = 2;        // steps Play still shows after the first success
export const PLAY_PAUSE_MS = 300;   // at least this long between two of Play's steps

// The d values Play visits: round(2^(x / DSLIDER)) for x every 1/perOctave octave of the d
// slider, from `from` up to max (max itself last), duplicates dropped. Never empty.
export function playSequence(max, { from = PLAY_FROM, perOctave = PLAY_PER_OCTAVE } = {}) {
  const out = [];
  const x0 = DSLIDER * Math.log2(Math.max(1, Math.min(from, max)));
  for (let i = 0; ; i++) {
    const d = Math.min(max, Math.max(1, Math.round(2 ** ((x0 + (i * DSLIDER) / perOctave) / DSLIDER))));
    if (out[out.length - 1] !== d) out.push(d);
    if (d >= max) return out;
  }
}

const sleep = (ms, signal) => new Promise((resolve) => {
  const t = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
});

// Runs Play over ds: show(d) applies d and resolves with the construct result drawn for it (null:
// something else was drawn, or it failed); onStep({ d, success }) after each. Stops PLAY_AFTER
// steps after the first success, at the end of ds, when signal aborts or show gives null.
// Resolves { checked: [{ d, success }], flippedAt (first success's d or null), before (the d
// shown just before it, or null), failedAfter (a later d that failed, or null), stopped:
// 'done' | 'end' | 'cancelled' | 'interrupted' }.
export async function play({ ds, show, signal, onStep = () => {}, after = PLAY_AFTER, pauseMs = PLAY_PAUSE_MS }) {
  const out = { checked: [], flippedAt: null, before: null, failedAfter: null, stopped: 'end' };
  for (const d of ds) {
    if (signal?.aborted) return { ...out, stopped: 'cancelled' };
    const t0 = Date.now();
    const r = await show(d);
    if (!r || r.d !== d) return { ...out, stopped: signal?.aborted ? 'cancelled' : 'interrupted' };
    const success = !!r.metrics.success;
    out.checked.push({ d, success });
    if (success && out.flippedAt === null) {
      out.flippedAt = d;
      out.before = out.checked.length > 1 ? out.checked[out.checked.length - 2].d : null;
    }
    if (!success && out.flippedAt !== null && out.failedAfter === null) out.failedAfter = d;
    onStep({ d, success });
    const since = out.flippedAt === null ? -1 : out.checked.length - 1 - out.checked.findIndex((c) => c.d === out.flippedAt);
    if (since >= after) return { ...out, stopped: 'done' };
    await sleep(Math.max(0, pauseMs - (Date.now() - t0)), signal);
  }
  return out;
}

// What Play found, in one sentence.
export function playMessage(o) {
  const last = o.checked.length ? o.checked[o.checked.length - 1].d : null;
  if (o.stopped === 'cancelled' || o.stopped === 'interrupted') {
    const why = o.stopped === 'cancelled' ? 'Stopped' : 'Stopped: the settings changed';
    return `${why}${last === null ? '.' : ` at d = ${last}`}${o.flippedAt === null ? (last === null ? '' : ', no success yet.') : `; success first at d = ${o.flippedAt}.`}`;
  }
  if (o.flippedAt === null) return `No success up to d = ${last}: (R) and (Z) never both held.`;
  const from = o.before === null ? `already at d = ${o.flippedAt}, the first d shown` : `at d = ${o.flippedAt} (d = ${o.before} still failed)`;
  const held = o.failedAfter === null ? `and held up to d = ${last}` : `but d = ${o.failedAfter} failed again`;
  return `The verdict flipped to success ${from}, ${held}.`;
}

// Options for pool.run('minD', …) for state st: its construct options (custom: the pattern's
// triplets) without d, with the grid step and largest d { step, dmax }.
export function minDOptions(schema, st, custom, { step, dmax }) {
  const o = constructOptions(schema, st, custom);
  delete o.d;
  return { ...o, step, dmax };
}

// The grid of the page's minimal-d search for state st: the construction's step (lp: 1), else the
// explorer's default step (schema), up to the largest d of the state table for st.
export function minDGrid(schema, table, st = {}) {
  const f = table.d;
  const step = constructionOf(schema, st.construction).searchStep || schema.contexts.explorer.defaults.step;
  return { step, dmax: typeof f.max === 'function' ? f.max(st) : f.max };
}

// Why d cannot be searched or played for state st (moment: D = 2m is fixed), or null.
export function notSearchable(schema, st) {
  const c = constructionOf(schema, st.construction);
  const searchable = schema.constructions.filter((x) => x.searchable).map((x) => x.name).join(' or ');
  return c.searchable ? null : `The ${c.name} construction has one hidden size per pattern, D = 2m (m: the largest row support), at every L: there is no d to search or play. Pick ${searchable} to vary d.`;
}

// What the minimal-d search found (res: minD's result; grid: { step, dmax }), in one sentence.
export function minDMessage(res, { step, dmax }) {
  if (res.dMin === null) return `No d up to ${dmax}${step === 1 ? '' : ` (in steps of ${step})`} succeeds for this target and seed; d is unchanged.`;
  const which = step === 1 ? `the smallest d (up to ${dmax})` : `the smallest multiple of ${step} (up to ${dmax})`;
  return `Minimal d = ${res.dMin}: ${which} at which (R) and (Z) hold for this target and seed. d is now ${res.dMin}.`;
}
