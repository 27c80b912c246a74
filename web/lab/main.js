// attnx lab: page start-up and wiring. The settings live in one store (store.js) mirrored to the
// URL hash; the form renders the store and commits valid edits to it; Run sends the store's
// settings to the worker pool (run.js) and the result views redraw as lengths finish.
import { createPool } from '../lib/pool.js';
import { defaults } from '../common/hashstate.js';
import { MessageList } from '../common/messages.js';
import { setupCopyLink } from '../common/copy-link.js';
import { Controls } from './controls.js';
import { watchHeight } from '../common/embed-height.js';
import { applyTheme } from '../common/theme.js';
import { labTable, checkState, gridOf, widerGrid, DISPLAY_FIELDS } from './settings.js';
import { readLink, writeLink } from './link.js';
import { Store, mirrorToHash } from './store.js';
import { startRun, cancelRun } from './run.js';
import { fitKeeper } from './results.js';
import { wireFiles } from './page-files.js';
import { renderScheduler } from './views/results-view.js';
import { presetHint } from './views/source.js';
import { guessMode, showMode, readyText } from './embed-mode.js';

const $ = (id) => document.getElementById(id);

// publish = false: the page attribute (read by tests and the benchmark) follows after the redraw.
function runStateSetter(app) {
  return (s, publish = true) => {
    app.runState = s;
    if (publish) document.body.dataset.run = s;
  };
}

// Starts the worker pool and reads the core's schema and build info through it. Resolves
// { pool, concurrency, schema, build }; rejects when the pool or the module cannot start.
async function startPool() {
  const pool = await createPool();
  const [schema, build] = await Promise.all([pool.run('schema', {}), pool.run('info', {}).catch(() => null)]);
  return { pool, concurrency: Math.max(1, pool.size), schema, build };
}

// What the result views draw now (see views/results-view.js).
function resultView(app) {
  const st = app.store.get();
  const gridLs = app.runLs.length || app.result ? app.runLs : gridOf(st);
  const wider = widerGrid(app.schema, st);
  const widerHref = wider ? `${location.pathname}${writeLink(app.schema, app.table, { ...st, Ls: wider, preset: 'none' }, { autorun: true })}` : null;
  return { res: app.result, gridLs, runLs: app.runLs, states: app.taskStates, dMax: st.dmax, runState: app.runState, schema: app.schema, wider: wider && { Ls: wider, href: widerHref } };
}

// Puts `hash` in the URL in place of the current one (no history entry, no hashchange).
function replaceHash(hash) {
  history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
}

// Applies a link (the page's hash) to the store; reports its problems; runs the sweep when the
// link asks to (on load, or when the new hash itself says autorun=1). Hashes that are no link
// (an element id, empty) change nothing; a link of an unknown version only reports that.
function applyLink(app, hash, { fromLoad = false } = {}) {
  const r = readLink(app.schema, app.table, hash);
  if (!r) return;
  app.messages.set('link', r.errors.map((e) => `Link setting ignored: ${e}.`), 'error');
  if (r.tooLong) replaceHash(writeLink(app.schema, app.table, app.store.get()));
  if (!r.state) return;
  app.controls.reset();
  app.store.set(r.state, { source: 'link' });
  if (!r.state.autorun || !(fromLoad || /(^|[#&])autorun=1(&|$)/.test(hash))) return;
  if (r.errors.length) app.messages.set('autorun', ['The link asked to run the sweep, but it has invalid settings: check them and press Run.'], 'warn');
  else startRun(app);
}

// Replaces the settings by `values` over the defaults (the preset and Defaults buttons); the
// display fields (embed mode) stay.
function replaceSettings(app, values, source) {
  const st = app.store.get();
  const display = Object.fromEntries(DISPLAY_FIELDS.map((name) => [name, st[name]]));
  app.controls.reset();
  app.store.set({ ...defaults(app.table), ...values, ...display, preset: 'none', autorun: false }, { source });
  app.messages.clear();
}

// The form and the store: the form shows the store and commits to it; the URL follows the store.
function wireSettings(app) {
  app.controls = new Controls($('settings'), {
    schema: app.schema,
    table: app.table,
    onCommit: (name, value) => app.store.set({ [name]: value, preset: 'none', autorun: false }, { source: 'controls' }),
    onValidity: (valid) => { $('run').disabled = !valid || app.runState === 'running' || !app.pool; },
  });
  app.store.subscribe((st) => {
    showMode(app, st);
    if (st.theme !== app.theme) {  // the plots' colours follow the page's scheme
      app.theme = st.theme;
      applyTheme(st.theme);
      app.render.schedule();
    }
    app.controls.render(st);
    if (!app.result) app.render.schedule();
  });
  mirrorToHash(app.store, (st) => (checkState(app.schema, app.table, st).errors.length ? null : writeLink(app.schema, app.table, st)), window);
  app.controls.render(app.store.get());
  $('preset-paper').addEventListener('click', () => replaceSettings(app, app.schema.presets.paper.values, 'preset'));
  $('reset').addEventListener('click', () => replaceSettings(app, {}, 'reset'));
  setupCopyLink($('copy-link'), () => `${location.origin}${location.pathname}${writeLink(app.schema, app.table, app.store.get(), { autorun: $('link-autorun').checked })}`,
    $('share-msg'), { field: $('share-link'), box: $('share-out') });
}

// Run, Cancel, Enter in a field, the skip link (moves focus; the URL and settings stay), the
// hash typed by hand, resizes and the colour scheme.
function wireEvents(app) {
  $('run').addEventListener('click', () => startRun(app));
  $('cancel').addEventListener('click', () => cancelRun(app));
  $('settings').addEventListener('submit', (e) => { e.preventDefault(); startRun(app); });
  $('settings').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.target.tagName !== 'INPUT') return;
    e.preventDefault();
    e.target.dispatchEvent(new Event('change'));
    startRun(app);
  });
  $('skip-results').addEventListener('click', (e) => {
    e.preventDefault();
    $('results').focus();
    $('results').scrollIntoView();
  });
  window.addEventListener('hashchange', () => {
    if (app.runState !== 'running') applyLink(app, location.hash);
    else if (readLink(app.schema, app.table, location.hash)?.tooLong) replaceHash(writeLink(app.schema, app.table, app.store.get()));
  });
  $('full-dstar').addEventListener('change', app.render.schedule);
  let lastW = 0;
  new ResizeObserver(() => {
    const w = $('plot-dl').clientWidth;
    if (w !== lastW) { lastW = w; app.render.schedule(); }
  }).observe($('plot-dl'));
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', app.render.schedule);
}

// A read-only view of the page for tests and the benchmark.
function publish(app) {
  window.attnxLab = {
    get runState() { return app.runState; },
    get result() { return app.result ? JSON.parse(JSON.stringify(app.result)) : null; },
    get state() { return app.store.get(); },
    get concurrency() { return app.concurrency; },
  };
}

async function main(app) {
  document.getElementById('file-hint').remove();  // the script runs: not opened from disk (base.css)
  guessMode();
  watchHeight('lab');  // inside an iframe: the content height to the host (README, Embedding)
  app.setRunState('loading');
  Object.assign(app, await startPool());
  app.table = labTable(app.schema);
  app.store = new Store(defaults(app.table));
  app.render = renderScheduler(() => resultView(app));
  app.refit = fitKeeper(app.pool, () => app.render.schedule());
  wireSettings(app);
  wireEvents(app);
  wireFiles(app);
  const b = app.build;
  $('preset-hint').textContent = presetHint(app.schema.presets.paper);
  $('pool-info').textContent = `Runs on ${app.concurrency} worker${app.concurrency > 1 ? 's' : ''} (all cores but one)${b && b.flavour ? `, ${b.flavour}` : ''}; the page stays responsive.`;
  app.version = b && typeof b.version === 'string' ? b.version : null;
  app.setRunState('idle');
  $('status').textContent = readyText(app.store.get());
  app.render.now();
  publish(app);
  applyLink(app, location.hash, { fromLoad: true });
  showMode(app, app.store.get());
  if (app.runState === 'idle') $('status').textContent = readyText(app.store.get());
}

const app = { result: null, runLs: [], taskStates: new Map(), run: null, runState: 'loading', pool: null, concurrency: 1 };
app.setRunState = runStateSetter(app);
app.messages = new MessageList($('messages'));
main(app).catch((e) => {
  app.messages.set('start', [`The lab could not start: ${e && e.message ? e.message : e}. Serve the folder over http (npm start) in a current browser.`], 'error');
  $('status').textContent = 'The lab cannot compute or import in this browser session.';
  app.setRunState('error');
});
