// attnx explorer: the page. Mounts the explorer's markup (skeleton.js) into <main>, reads the URL
// hash into the one controller (controller.js: state, worker pool, drawing, stories) and wires
// what only the page has: the link in the address bar, sharing, the quick tools, the
// custom-pattern tools, the explanation and presentation mode.
import { createPool } from '../lib/pool.js';
import { isElementHash, hashLengthError, defaults } from '../common/hashstate.js';
import { applyTheme } from '../common/theme.js';
import { watchHeight } from '../common/embed-height.js';
import { setIf } from '../common/dom.js';
import { explorerTable } from './state.js';
import { explorerSkeleton } from './skeleton.js';
import { quickTools, customTools, headTools } from './page-panel.js';
import { ExplorerController } from './controller.js';
import { RenderClient } from './render-client.js';
import { LinkState } from './link.js';
import { CustomTools } from './custom-tools.js';
import { HeadTools } from './head-tools.js';
import { HeadFigure } from './views/head-figure.js';
import { HeadSurvey } from './head-survey.js';
import { attachFileDrop } from './file-drop.js';
import { el } from '../common/dom.js';
import { StatusView } from './views/status-view.js';
import { attachDrawing } from './views/draw-editor.js';
import { setupShare } from './share.js';
import { setupLectureTools } from './lecture-tools.js';
import { resolvePreset } from './presets.js';
import { Presenter } from './present.js';
import { readSavedView } from '../common/one-file.js';
import { openSavedHead, setupSave } from './one-file-view.js';

const $ = (id) => document.getElementById(id);
const html = document.documentElement;

let ctl, link, tools, heads, survey, share, presenter;

// Says on the page why nothing can be computed (the module did not load).
function failEarly(status, e) {
  status.done('The WebAssembly module could not be loaded.');
  status.setMessages('api', [`Could not start the computation: ${e && e.message ? e.message : e}. Serve this folder over http (npm start) and use a browser with WebAssembly SIMD.`], 'error');
  html.dataset.busy = '0';
}

async function main() {
  $('file-hint').remove();  // the script runs: the page was not opened from disk (see base.css)
  html.dataset.busy = '1';
  const { box, panel } = explorerSkeleton('page');
  panel.prepend(quickTools());
  panel.append(customTools());
  $('app').replaceChildren(box);
  const status = new StatusView({ text: $('status-text'), progress: $('progress'), list: $('messages') });
  status.busy('Loading the WebAssembly module…');
  // The render worker starts now, while the pool's workers load the WebAssembly: it is ready when
  // the first result is (issue 26.3: off the first result's path).
  const render = new RenderClient();
  let pool, schema;
  try {
    pool = await createPool();
    schema = await pool.run('schema', {});
  } catch (e) {
    failEarly(status, e);
    return;
  }
  const table = explorerTable(schema);
  ctl = new ExplorerController({
    root: document, host: html, pool, schema, table, status, render, mirror: { write: (st) => link && link.write(st) },
    hooks: pageHooks(status),
  });
  ctl.setControls(null);
  setupTools(schema, table, pool);
  setupHeads(schema, table, pool);
  setupDrops();
  setupLinks(schema, table, status);
  setupLecture(schema, table, pool);
  const view = readSavedView('explorer', (group, list, kind) => status.setMessages(group, list, kind));  // a one-file page's saved view
  readLink(schema, table, pool);
  setupSave({ button: $('save-file'), schema, link, heads, controller: ctl, status });
  watchHeight('explorer');  // in an iframe: the content height (embed layout) to the host (docs/embedding.md)
  await openSavedHead(view, heads, survey);
}

// What the page does around the controller's work.
function pageHooks(status) {
  return {
    changing: () => status.setMessages('hash', []),  // the link's problems are history once the visitor changes something
    afterChange: (st, changed) => {
      document.body.classList.toggle('embed', st.embed);
      applyTheme(st.theme);
      showHelp(st.help);
      if (tools) tools.refreshUI();
      if (heads) heads.afterChange(st, changed);
      if (survey) survey.checkSettings();
      setIf($('export-json'), 'disabled', !ctl.custom && !ctl.current);
      setIf($('export-csv'), 'disabled', !ctl.custom && !ctl.current);
      if (presenter) presenter.sync(st);
    },
    shown: () => heads && heads.redraw(),
    redrawn: () => heads && heads.redraw(),  // the same result drawn again (at another size)
    viewDrawn: () => heads && heads.redraw(),  // the zoom window moved
    doneText: (r, ms) => `L = ${r.L}, d = ${r.d}: ${r.metrics.success ? 'success' : 'not yet'} · computed and drawn in ${ms} ms in your browser`,
    drawable: (view) => view === ctl.figures.views.A && tools.drawingEnabled(),
    keyDraw: (c) => {
      tools.pushUndo();
      tools.toggle(c, null);
      ctl.commitCustom();
    },
  };
}

// The explanation (a <details>) open or closed with the state's help field.
function showHelp(open) {
  const ex = $('explain');
  if (ex.open !== open) ex.open = open;
  setIf($('help-btn'), 'textContent', open ? 'Hide the explanation' : 'What am I looking at?');
  if ($('help-btn').getAttribute('aria-expanded') !== String(open)) $('help-btn').setAttribute('aria-expanded', String(open));
}

// Brings the opened explanation into view and its summary into focus (the button that opened it
// is a screen or more above it).
function showExplanation() {
  const summary = $('explain').querySelector('summary');
  $('explain').scrollIntoView({ block: 'start' });
  summary.focus({ preventScroll: true });
}

function setupTools(schema, table, pool) {
  tools = new CustomTools({ schema, table, pool, controller: ctl });
  attachDrawing(ctl.figures.views.A, {
    enabled: () => tools.drawingEnabled(),
    begin: () => tools.pushUndo(),
    toggle: (c, mode) => tools.toggle(c, mode),
    end: () => ctl.commitCustom(),
  });
}

// The imported head: its tools in the settings panel (after the quick tools), the dense head's
// figure after M, its readout under the verdict and the survey of every head (first card).
function setupHeads(schema, table, pool) {
  document.getElementById('quick').after(headTools(schema));
  const readout = el('p', { class: 'head-readout', id: 'head-readout', hidden: true });
  document.querySelector('.verdict-bar').after(readout);
  heads = new HeadTools({ schema, table, pool, controller: ctl, figure: new HeadFigure($('figures')), readout });
  survey = new HeadSurvey({ heads, controller: ctl, pool }, document.querySelector('.cards'));
  heads.onFile = (file) => survey.setFile(file);
  for (const id of ['head-rule', 'head-softmax']) $(id).addEventListener('change', () => survey.checkSettings());
}

// Dropped files: on the head tools a model's head, on the custom-pattern tools a pattern; elsewhere
// none is read, and the head tools say where to drop it. After setupTools and setupHeads.
function setupDrops() {
  attachFileDrop([
    { el: $('head-tools'), read: (f) => heads.openBlob(f) },
    { el: $('custom-tools'), read: (f) => tools.importFile(f) },
  ], (name) => {
    $('head-tools').open = true;
    heads.message(`${name} was not read: drop a model's attention head on these tools, or a pattern's JSON or CSV on "Custom pattern".`, 'error');
  });
}

// The link (hash), sharing, the help toggle and the skip link (moves focus, never the hash).
function setupLinks(schema, table, status) {
  share = setupShare({
    copyBtn: $('copy-link'), out: $('share-out'), input: $('share-link'), msg: $('share-msg'),
    embedBtn: $('embed-btn'), embedPanel: $('embed-panel'), embedCode: $('embed-code'), embedCopy: $('embed-copy'),
    embedMsg: $('embed-msg'), currentHref: () => link.href(), openFull: $('open-full'),
  });
  link = new LinkState({
    schema, table, status,
    onRead: (state, given, custom) => {
      tools.reset();
      ctl.load(state, given, custom);
    },
    onWritten: () => share.refresh(),
  });
  // A change not yet in the URL (link.js) is written when the page is left or hidden.
  window.addEventListener('pagehide', () => link.flush());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') link.flush();
  });
  window.addEventListener('hashchange', () => {
    const h = location.hash;  // an element id is no link, unless it is longer than any link
    if (!link.isOwn(h) && (!isElementHash(h) || hashLengthError(table, h))) link.read();
  });
  for (const a of document.querySelectorAll('a.skip[href^="#"]')) {
    a.addEventListener('click', (ev) => {
      const target = document.getElementById(a.getAttribute('href').slice(1));
      if (!target) return;
      ev.preventDefault();
      target.focus();
      target.scrollIntoView();
    });
  }
  $('help-btn').addEventListener('click', () => {
    const open = !ctl.st.help;
    ctl.update({ help: open }, { compute: false });
    if (open) showExplanation();  // asked for: shown where it is, below the page (a link's help=1 is not)
  });
  $('explain').addEventListener('toggle', () => {
    if (ctl.st && ctl.st.help !== $('explain').open) ctl.update({ help: $('explain').open }, { compute: false });
  });
}

// Lecture mode (the story panel and its keys), presentation mode and the quick tools.
function setupLecture(schema, table, pool) {
  presenter = new Presenter({ root: document, box: document.querySelector('.ax'), fullscreenTarget: html, controller: ctl, keyTarget: document });
  ctl.story.attachKeys(document, () => !presenter.active);
  ctl.attachZoomKeys(document);  // n / N: the next / previous failing row
  $('present-btn').addEventListener('click', () => presenter.toggle());
  $('present-top').addEventListener('click', () => presenter.toggle());
  setupLectureTools({
    reset: $('reset-btn'), presets: $('preset-select'), stories: $('story-select'), mind: $('mind-btn'),
    play: $('play-btn'), stop: $('dsearch-stop'), progress: $('dsearch-progress'), msg: $('dsearch-msg'),
  }, {
    schema, table, pool, story: ctl.story, welcome: schema.explorerWelcome, getState: () => ctl.st, getCustom: () => ctl.custom,
    update: (patch) => ctl.update(patch), showState: (patch) => ctl.showState(patch),
  });
}

// Reads the link; a page opened without one shows the welcome preset (schema.explorerWelcome: a
// sliding window at its minimal d, found by the core's search first).
async function readLink(schema, table, pool) {
  if (location.hash.replace(/^#/, '') !== '') {
    link.read();
    return;
  }
  const r = await resolvePreset(pool, schema, table, schema.explorerWelcome);
  if (location.hash.replace(/^#/, '') !== '') return link.read();  // the visitor opened a link meanwhile
  ctl.load({ ...defaults(table), ...r.patch }, new Set(), null);
  if (r.note) ctl.status.setMessages('hash', [r.note], 'warn');
}

main().catch((e) => {
  const status = $('status-text');
  if (status) status.textContent = `Something went wrong: ${e && e.message ? e.message : e}`;
  console.error(e);
});
