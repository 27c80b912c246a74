// attnx lab: the lab mounted into a root, for lab.html (its document; the state comes from the
// URL hash, see main.js) and for <attnx-lab> (its shadow root; the state comes from attributes,
// see web/embed/lab-element.js). The settings live in one store (store.js); the form renders the
// store and commits valid edits to it; Run sends the store's settings to the worker pool (run.js)
// and the result views redraw as lengths finish. Nothing here reads or writes the URL: where the
// state comes from and where links lead is the host's (the options below).
import { defaults } from '../common/hashstate.js';
import { MessageList } from '../common/messages.js';
import { coreCount } from '../lib/pool.js';
import { Controls } from './controls.js';
import { labTable, gridOf, widerGrid, withConstructionGrid, DISPLAY_FIELDS } from './settings.js';
import { writeLink } from './link.js';
import { Store } from './store.js';
import { startRun, cancelRun } from './run.js';
import { fitKeeper, sweepKey } from './results.js';
import { renderScheduler, showSource } from './views/results-view.js';
import { presetHint } from './views/source.js';
import { plural } from './views/summary.js';
import { showMode, readyText } from './embed-mode.js';
import { setupCompare, cancelCompare } from './compare-run.js';
import { setupFrontier, cancelFrontier } from './frontier-run.js';

// What the result views draw now (see views/results-view.js).
function resultView(app) {
  const st = app.store.get();
  const gridLs = app.runLs.length || app.result ? app.runLs : gridOf(st);
  const wider = widerGrid(app.schema, st);
  const widerHref = wider ? app.labHref(writeLink(app.schema, app.table, { ...st, Ls: wider, preset: 'none' }, { autorun: true })) : null;
  return {
    res: app.result, core: app.core, gridLs, runLs: app.runLs, states: app.taskStates, dMax: st.dmax, runState: app.runState, schema: app.schema,
    wider: wider && { Ls: wider, href: widerHref, target: app.linkTarget }, $: app.$, dark: app.isDark(), changed: settingsChanged(app, st),
  };
}

// Whether the settings st are no longer those of the sweep run here that is on show (an imported
// result has no such settings: false).
function settingsChanged(app, st) {
  return !!app.result && app.resultKey !== null && app.resultKey !== sweepKey(app.schema, st);
}

// Replaces the settings by `values` over the defaults (the preset and Defaults buttons); the
// display fields (embed mode, theme) stay.
function replaceSettings(app, values, source) {
  const st = app.store.get();
  const display = Object.fromEntries(DISPLAY_FIELDS.map((name) => [name, st[name]]));
  app.controls.reset();
  app.store.set({ ...defaults(app.table), ...values, ...display, preset: 'none', autorun: false }, { source });
  app.messages.clear();
}

// The form and the store: the form shows the store and commits to it; the mode, the theme and the
// plots follow the store.
function wireSettings(app) {
  const { $ } = app;
  app.controls = new Controls($('settings'), {
    schema: app.schema,
    table: app.table,
    onCommit: (name, value) => app.store.set(withConstructionGrid(app.schema, app.table, app.store.get(),
      { [name]: value, preset: 'none', autorun: false }), { source: 'controls' }),
    onValidity: (valid) => { $('run').disabled = !valid || app.runState === 'running' || !app.pool; },
  });
  app.store.subscribe((st) => {
    showMode(app, st);
    if (st.theme !== app.theme) {  // the plots' colours follow the scheme
      app.theme = st.theme;
      app.applyTheme(st.theme);
      app.render.schedule();
      if (app.compare) app.compare.render.schedule();
      if (app.frontier) app.frontier.render.schedule();
    }
    app.controls.render(st);
    if (!app.result) app.render.schedule();
    else showSource($('result-source'), { res: app.result, runState: app.runState, schema: app.schema, changed: settingsChanged(app, st) });
  });
  app.controls.render(app.store.get());
  $('preset-paper').addEventListener('click', () => replaceSettings(app, app.schema.presets.paper.values, 'preset'));
  $('reset').addEventListener('click', () => replaceSettings(app, {}, 'reset'));
}

// Run, Cancel, Enter in a field, the d* checkbox, resizes (the plots follow their box's width)
// and the system's colour scheme (the comparison's plots too: compare-run.js).
function wireEvents(app) {
  const { $ } = app;
  $('run').addEventListener('click', () => startRun(app));
  $('cancel').addEventListener('click', () => cancelRun(app));
  $('settings').addEventListener('submit', (e) => { e.preventDefault(); startRun(app); });
  $('settings').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.target.tagName !== 'INPUT') return;
    e.preventDefault();
    e.target.dispatchEvent(new Event('change'));
    startRun(app);
  });
  $('full-dstar').addEventListener('change', app.render.schedule);
  let lastW = 0;
  new ResizeObserver(() => {
    const w = $('plot-dl').clientWidth;
    if (w !== lastW) { lastW = w; app.render.schedule(); }
  }).observe($('plot-dl'));
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    app.render.schedule();
    app.compare.render.schedule();
    if (app.frontier) app.frontier.render.schedule();
  });
}

// Applies settings read by the host (a link, or attributes: { state, errors }, see link.js
// readLink) to the store; shows their problems in the message group `group` (each through
// `format`); runs the sweep when `run` and the settings ask to (autorun), unless some are invalid
// (then says `refused`). A read without state (a refused link) only reports.
function applySettings(app, read, { group, format = (e) => e, run = false, refused }) {
  app.messages.set(group, read.errors.map(format), 'error');
  if (!read.state) return;
  app.controls.reset();
  app.store.set(read.state, { source: group });
  const st = app.store.get();
  showMode(app, st);
  if (app.runState === 'idle') app.$('status').textContent = readyText(st);
  if (!run || !st.autorun) return;
  if (read.errors.length) app.messages.set('autorun', [refused], 'warn');
  else startRun(app);
}

// Forgets the result on show (the settings changed: it no longer belongs to them).
function clearResult(app) {
  app.result = null;
  app.resultKey = null;
  app.runLs = [];
  app.taskStates = new Map();
  if (app.runState !== 'running') app.setRunState('idle');
  app.$('status').textContent = readyText(app.store.get());
  app.render.schedule();
}

/**
 * Mounts the lab into `container`, which holds placeLab's columns (skeleton.js); its root node
 * (the document or a shadow root) is searched for the lab's ids. opts:
 *   pool, schema          the worker pool and the core's schema (pool.run('schema'))
 *   core                  the module's API on this thread (web/lib/attnx.js load()): the lab's
 *                         cheap, synchronous calls (task plan, progress, merge, plots' numbers)
 *   box                   the element that carries the mode classes and data-run (page: <body>)
 *   messages              a MessageList (default: one on the root's #messages)
 *   labHref(hash)         the address of the full lab page with that hash (links it offers)
 *   linkTarget            the target of those links (null: this window)
 *   isDark()              whether the plots take their dark colours
 *   applyTheme(theme)     shows the store's theme field (page: <html data-theme>)
 *   onRunState(s)         after the run state changed ('idle', 'running', 'done', ...)
 *   onResult(res)         when a sweep finished: the result record, its fits by the core
 *   warm                  start every worker of the pool once mounted (pool.warm(); the page)
 * Resolves { app, store, apply(read, { group, format, run, refused }), run(), cancel() (the sweep and
 * the comparison), clearResult() };
 * rejects when the build info cannot be read.
 */
export async function mountLab(container, opts) {
  const root = container.getRootNode();
  const $ = (id) => root.getElementById(id);
  const app = {
    $, box: opts.box, pool: opts.pool, core: opts.core, schema: opts.schema, concurrency: Math.max(1, opts.pool.size || 1),
    messages: opts.messages || new MessageList($('messages')),
    labHref: opts.labHref, linkTarget: opts.linkTarget || null, isDark: opts.isDark,
    applyTheme: opts.applyTheme || (() => {}), onResult: opts.onResult || (() => {}),
    result: null, resultKey: null, runLs: [], taskStates: new Map(), run: null, runState: 'loading',
  };
  app.setRunState = (s, publish = true) => {  // publish = false: the attribute follows after the redraw
    app.runState = s;
    if (!publish) return;
    app.box.dataset.run = s;
    if (opts.onRunState) opts.onRunState(s);
  };
  app.setRunState('loading');
  const build = await app.pool.run('info', {}).catch(() => null);
  app.version = build && typeof build.version === 'string' ? build.version : null;
  app.table = labTable(app.schema);
  app.store = new Store(defaults(app.table));
  app.render = renderScheduler(() => resultView(app), () => app.runState === 'running');
  app.refit = fitKeeper(app.pool, () => app.render.schedule());
  wireSettings(app);
  wireEvents(app);
  setupCompare(app);
  setupFrontier(app);
  $('preset-hint').textContent = presetHint(app.schema.presets.paper);
  $('pool-info').textContent = `Runs on ${plural(app.concurrency, 'worker')} (${app.concurrency >= coreCount() ? 'one per core' : 'all cores but one'})${build && build.flavour ? `, ${build.flavour}` : ''}; the page stays responsive.`;
  app.setRunState('idle');
  showMode(app, app.store.get());
  $('status').textContent = readyText(app.store.get());
  app.render.now();
  // The lab page starts every worker now (each loads and runs its module once), so the first run
  // does not wait for them; an element in an article leaves that to its first run (readers who
  // never run one should not hold a worker per core).
  if (opts.warm) app.pool.warm();
  return {
    app,
    store: app.store,
    apply: (read, how) => applySettings(app, read, how),
    run: () => startRun(app),
    cancel: () => Promise.all([cancelRun(app), cancelCompare(app), cancelFrontier(app)]),
    clearResult: () => clearResult(app),
  };
}
