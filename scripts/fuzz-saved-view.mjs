// attnx: a seeded fuzzer of the saved view a one-file page carries (web/common/one-file.js, issue
// 45's format attnx-view/1) without a browser: hostile or truncated view blocks (wrong types, huge
// links, bad base64, markup, __proto__, deep nesting, cut anywhere) read by readView, and views
// written into a page by withView and read back. A case is a pure function of (seed, index) and is
// BAD when readView throws, returns a field it should have refused, gives a message that names no
// field, or when a written view does not come back as itself (a "</script>" in it ended the block:
// input parsed as HTML). The browser's file:// run of the one-file page is left to
// tests/e2e/one-file.test.mjs's fixed cases.
//   node scripts/fuzz-saved-view.mjs [--seed N] [--cases N]
import { fileURLToPath } from 'node:url';
import { readView, withView, emptyViewBlock, VIEW_FORMAT, MAX_SAVED_HEAD_BYTES } from '../web/common/one-file.js';
import { caseRng, MARKUP } from './fuzz-web-inputs.mjs';

const FIELDS = ['format', 'page', 'link', 'head', 'head.name', 'head.base64', 'survey', 'the view'];
const SOURCE = `<!doctype html><title>x</title>${emptyViewBlock()}<script>/* page */</script>`;
const BLOCK = /<script type="application\/json" id="attnx-view">([\s\S]*?)<\/script>/;

// A value of another type, or hostile text.
const ANY = (rng) => rng.pick([null, 1, true, [], {}, '', 'x', ...MARKUP, '</script><i data-fz=1>', { __proto__: null, a: 1 }]);

/** Case index under seed: { text } (a view block's text) or { view } (a view withView writes). */
export function savedViewCase(seed, index) {
  const rng = caseRng(seed, 'saved-view', index);
  const view = { format: VIEW_FORMAT, page: rng.pick(['explorer', 'explorer', 'lab']), link: '#v=3&L=16&view=0,8,0,8' };
  if (rng.chance(0.5)) view.head = { name: 'a.npz', base64: 'UEsDBA==' };
  if (rng.chance(0.3)) view.survey = rng.chance(0.7);
  const k = rng.int(0, 9);
  if (k === 0) view[rng.pick(['format', 'page', 'link', 'survey', 'head'])] = ANY(rng);
  else if (k === 1) view.link = rng.pick(['#'.padEnd(65537, 'x'), 'v=3&L=16', `#view=${'9'.repeat(400)}`, `#${MARKUP[0]}`, '#</script>']);
  else if (k === 2) view.head = { name: rng.pick(['', 'x'.repeat(257), 'a.npz', '</script>.npz', 5]), base64: rng.pick(['UEsDBA==', 'UEsDBA=', '!!!!', '', 5, 'UEs=DBA=', 'A===',
    'A'.repeat(4 * Math.ceil((MAX_SAVED_HEAD_BYTES + 3) / 3) + 4), 'A'.repeat(4 * Math.floor(MAX_SAVED_HEAD_BYTES / 3))]) };
  else if (k === 3) view.extra = ANY(rng);
  else if (k === 4) return { view: { ...view, page: view.head ? 'explorer' : view.page } };
  let text = JSON.stringify(view);
  if (k === 5) text = text.slice(0, rng.int(0, text.length - 1));
  else if (k === 6) text = rng.pick(['', 'null', '[]', '"x"', '1', `${'['.repeat(100000)}`, '{"__proto__":{"format":"attnx-view/1"}}', 'undefined', '\ufeff{}']);
  else if (k === 7) text = text.replace(/"(format|page)":"[^"]*"/, `"$1":"${rng.pick(['attnx-view/2', 'EXPLORER', ''])}"`);
  return { text, page: rng.pick(['explorer', 'lab']) };
}

// Why a readView answer is wrong (null: it is right).
function wrong({ view, errors }) {
  if (!Array.isArray(errors) || errors.some((e) => typeof e !== 'string' || !e.startsWith('Saved view: '))) return `messages not "Saved view: …": ${JSON.stringify(errors).slice(0, 200)}`;
  const unnamed = errors.find((e) => !FIELDS.some((f) => e.includes(f)));
  if (unnamed) return `a message names no field: ${unnamed.slice(0, 200)}`;
  if (view === null) return null;
  if (typeof view.link !== 'string' || (view.link && !view.link.startsWith('#')) || view.link.length > 65536) return `link kept: ${String(view.link).slice(0, 80)}`;
  if (view.head !== null && !(typeof view.head.name === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(view.head.base64))) return 'a bad head kept';
  if (typeof view.survey !== 'boolean' || (view.survey && !view.head)) return `survey ${view.survey} kept`;
  return null;
}

/** [outcome 'ok' | 'refused' | 'BAD', reason] of case index under seed. */
export function runSavedViewCase(seed, index) {
  const c = savedViewCase(seed, index);
  try {
    if (c.view) {
      const m = BLOCK.exec(withView(SOURCE, c.view));
      const back = m && readView(m[1], c.view.page);
      if (!back || back.errors.length || JSON.stringify(back.view.link) !== JSON.stringify(c.view.link)) return ['BAD', `a written view did not come back: ${JSON.stringify(back?.errors)}`];
      return ['ok'];
    }
    const r = readView(c.text, c.page);
    const why = wrong(r);
    return why ? ['BAD', why] : [r.errors.length || r.view === null ? 'refused' : 'ok'];
  } catch (e) {
    return ['BAD', `readView threw: ${e.message}`];
  }
}

/** Counts { ok, refused, bad: [{ index, reason }] } over cases [0, n). */
export function runSavedViewFuzz(seed, n) {
  const out = { ok: 0, refused: 0, bad: [] };
  for (let i = 0; i < n; i++) {
    const [o, reason] = runSavedViewCase(seed, i);
    if (o === 'BAD') out.bad.push({ index: i, reason }); else out[o]++;
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (f, d) => { const i = process.argv.indexOf(f); return i > 0 ? Number(process.argv[i + 1]) : d; };
  const seed = arg('--seed', 1), n = arg('--cases', 2000);
  const r = runSavedViewFuzz(seed, n);
  console.log(`saved-view fuzz: seed ${seed}, ${n} cases: ok ${r.ok}, refused ${r.refused}, BAD ${r.bad.length}`);
  for (const b of r.bad.slice(0, 10)) console.log(`  BAD case ${b.index}: ${b.reason}`);
  process.exitCode = r.bad.length ? 1 : 0;
}
