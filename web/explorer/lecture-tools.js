// attnx explorer: the page's quick tools (page-panel.js #quick): Reset (the welcome preset), the
// presets menu, the lectures menu, "Find the minimal d" (the core's minD on the worker pool, with
// progress and Stop) and Play (d swept upward through the page's update path, see d-search.js).
import { el } from '../common/dom.js';
import { presetList, resolvePreset } from './presets.js';
import { STORIES } from './story.js';
import { play, playSequence, playMessage, minDOptions, minDGrid, minDMessage, notSearchable } from './d-search.js';
import { settingsKey as stateKey } from './state.js';

// The state's construct options without d, as text (Play and the search stop when they change).
const settingsKey = (schema, st, custom) => stateKey(schema, st, custom, { anyD: true });

// Wires the quick tools. els: { reset, presets (select), stories (select), mind, play, stop,
// progress, msg } (page-panel.js); ctx: { schema, table, pool, story (StoryControl), getState(),
// getCustom(), update(patch), showState(patch) -> Promise<construct result | null>,
// welcome: the preset Reset applies }. Returns { stop() }: ends a running search or Play.
export function setupLectureTools(els, ctx) {
  let job = null;  // { ctrl, kind } of the running search or Play
  const say = (text, kind = '') => { els.msg.textContent = text; els.msg.className = `msg ${kind}`; };
  const busy = (on, kind) => {
    els.mind.disabled = on;
    els.play.disabled = on;
    els.stop.hidden = !on;
    els.progress.hidden = !(on && kind === 'minD');
    if (on) els.progress.removeAttribute('value');
  };
  const stop = () => { if (job) job.ctrl.abort(); };
  const begin = (kind) => {
    stop();
    job = { ctrl: new AbortController(), kind };
    busy(true, kind);
    return job;
  };
  const end = (j) => {  // true when j was still the running job (a newer one says its own)
    if (job !== j) return false;
    job = null;
    busy(false);
    return true;
  };

  for (const p of presetList(ctx.schema, ctx.table)) els.presets.append(el('option', { value: p.name, text: p.label }));
  const preset = async (name) => {
    const j = begin('preset');
    say(`${name === ctx.welcome ? 'Reset' : 'Preset'}: finding its minimal d…`);
    const r = await resolvePreset(ctx.pool, ctx.schema, ctx.table, name, { signal: j.ctrl.signal });
    if (!end(j) || !r) return;
    say(r.note, r.note ? 'error' : '');
    const { help, embed, theme } = ctx.getState();
    ctx.update({ ...r.patch, help, embed, theme });
  };
  els.presets.addEventListener('change', () => {
    const name = els.presets.value;
    els.presets.value = '';
    if (name) preset(name);
  });
  els.reset.addEventListener('click', () => preset(ctx.welcome));
  for (const [name, s] of Object.entries(STORIES)) els.stories.append(el('option', { value: name, text: s.label }));
  els.stories.addEventListener('change', () => {
    const name = els.stories.value;
    els.stories.value = '';
    stop();
    if (name) ctx.story.start(name);
  });
  els.stop.addEventListener('click', stop);
  const searchable = () => {
    const why = notSearchable(ctx.schema, ctx.getState());
    if (why) say(why, 'error');
    return !why;
  };
  els.mind.addEventListener('click', () => searchable() && findMinD(ctx, begin('minD'), { say, end, progress: els.progress }));
  els.play.addEventListener('click', () => searchable() && runPlay(ctx, begin('play'), { say, end }));
  return { stop };
}

// "Find the minimal d": minD on the pool with progress; sets d to its result (when the settings
// did not change meanwhile) and says so.
async function findMinD(ctx, job, { say, end, progress }) {
  const st = ctx.getState(), custom = ctx.getCustom();
  const key = settingsKey(ctx.schema, st, custom);
  const grid = minDGrid(ctx.schema, ctx.table, st);
  say(`Searching the smallest d in steps of ${grid.step} up to ${grid.dmax}…`);
  try {
    const onProgress = (f) => { if (Number.isFinite(f)) { progress.max = 1; progress.value = f; } };
    const res = await ctx.pool.run('minD', minDOptions(ctx.schema, st, custom, grid), { onProgress, signal: job.ctrl.signal });
    if (!end(job)) return;
    if (settingsKey(ctx.schema, ctx.getState(), ctx.getCustom()) !== key) return say('The settings changed during the search: its result is not applied. Press the button again.', 'error');
    say(minDMessage(res, grid), res.dMin === null ? 'error' : 'ok');
    if (res.dMin !== null) ctx.update({ d: res.dMin });
  } catch (e) {
    if (!end(job)) return;
    if (e && e.name === 'AbortError') say('Search stopped.');
    else say(`The search failed: ${e && e.message ? e.message : e}`, 'error');
  }
}

// Play: shows d = 8, 10, 11, 13, 16, … (4 per octave) up to the table's largest d, each through the
// page's update path and only after the previous one was drawn; stops a few steps after the
// verdict flipped to success, on Stop, or when the visitor changes the settings.
async function runPlay(ctx, job, { say, end }) {
  const key = settingsKey(ctx.schema, ctx.getState(), ctx.getCustom());
  const ds = playSequence(minDGrid(ctx.schema, ctx.table, ctx.getState()).dmax);
  const show = async (d) => {
    if (settingsKey(ctx.schema, ctx.getState(), ctx.getCustom()) !== key) return null;
    const r = await ctx.showState({ d });
    return r && settingsKey(ctx.schema, ctx.getState(), ctx.getCustom()) === key ? r : null;
  };
  const onStep = ({ d, success }) => say(`Play: d = ${d}: ${success ? 'success' : 'not yet'}…`);
  const out = await play({ ds, show, signal: job.ctrl.signal, onStep });
  if (end(job)) say(playMessage(out), out.flippedAt === null ? 'error' : 'ok');
}
