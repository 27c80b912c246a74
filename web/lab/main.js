// attnx lab: lab.html's start-up. The lab itself (form, store, runs, views) is mounted by
// mount.js; this page gives it its state from the URL hash (and mirrors the store back to the
// hash), the Copy link button, the skip link, the file buttons (exports, import), the frame height
// for a host page, the page's theme and a read-only view for tests and the benchmark.
import { createPool, coreCount } from '../lib/pool.js';
import { load } from '../lib/attnx.js';
import { MessageList } from '../common/messages.js';
import { setupCopyLink } from '../common/copy-link.js';
import { watchHeight } from '../common/embed-height.js';
import { applyTheme, pageIsDark } from '../common/theme.js';
import { checkState } from './settings.js';
import { readLink, writeLink } from './link.js';
import { mirrorToHash } from './store.js';
import { placeLab } from './skeleton.js';
import { mountLab } from './mount.js';
import { wireFiles } from './page-files.js';
import { guessMode } from './embed-mode.js';
import { readSavedView } from '../common/one-file.js';
import { setupSave } from './save-file.js';

const $ = (id) => document.getElementById(id);

// Puts `hash` in the URL in place of the current one (no history entry, no hashchange).
function replaceHash(hash) {
  history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
}

// Applies a link (the page's hash) to the lab; runs the sweep when the link asks to (on load, or
// when the new hash itself says autorun=1). Hashes that are no link (an element id, empty) change
// nothing; a link of an unknown version only reports that; a link too long is replaced.
function applyLink(lab, hash, { fromLoad = false } = {}) {
  const { app } = lab;
  const r = readLink(app.schema, app.table, hash);
  if (!r) return;
  if (r.tooLong) replaceHash(writeLink(app.schema, app.table, app.store.get()));
  lab.apply(r, {
    group: 'link', format: (e) => `Link setting ignored: ${e}.`,
    run: fromLoad || /(^|[#&])autorun=1(&|$)/.test(hash),
    refused: 'The link asked to run the sweep, but it has invalid settings: check them and press Run.',
  });
}

// The URL follows the store; Copy link; the skip link (moves focus; the URL and settings stay);
// the hash typed by hand.
function wirePage(lab) {
  const { app } = lab;
  mirrorToHash(app.store, (st) => (checkState(app.schema, app.table, st).errors.length ? null : writeLink(app.schema, app.table, st)), window);
  setupCopyLink($('copy-link'), () => `${location.origin}${location.pathname}${writeLink(app.schema, app.table, app.store.get(), { autorun: $('link-autorun').checked })}`,
    $('share-msg'), { field: $('share-link'), box: $('share-out') });
  $('skip-results').addEventListener('click', (e) => {
    e.preventDefault();
    $('results').focus();
    $('results').scrollIntoView();
  });
  window.addEventListener('hashchange', () => {
    if (app.runState !== 'running') applyLink(lab, location.hash);
    else if (readLink(app.schema, app.table, location.hash)?.tooLong) replaceHash(writeLink(app.schema, app.table, app.store.get()));
  });
}

// A read-only view of the page for tests and the benchmark.
function publish(app) {
  window.attnxLab = {
    get runState() { return app.runState; },
    get result() { return app.result ? JSON.parse(JSON.stringify(app.result)) : null; },
    get state() { return app.store.get(); },
    get concurrency() { return app.concurrency; },
    get compare() { return app.compare.result ? JSON.parse(JSON.stringify(app.compare.result)) : null; },
    get frontier() { return app.frontier.result ? JSON.parse(JSON.stringify(app.frontier.result)) : null; },
    plan: (Ls, trials) => app.core.planSweep(Ls, trials, app.concurrency),  // the core's task plan here
  };
}

async function main(messages) {
  // One worker per core: the page's thread idles during a run (it only draws arriving points).
  const [pool, core] = await Promise.all([createPool({ size: coreCount() }), load()]);
  const schema = await pool.run('schema', {});
  const lab = await mountLab($('lab-main'), {
    pool, core, schema, box: document.body, messages, warm: true,
    labHref: (hash) => `${location.pathname}${hash}`,
    isDark: () => pageIsDark(document),
    applyTheme: (theme) => applyTheme(theme),
  });
  wirePage(lab);
  wireFiles(lab.app);  // downloads and import: the page's (an element shows the figures only)
  setupSave($('save-file'), lab.app, messages);
  publish(lab.app);
  readSavedView('lab', (group, list, kind) => messages.set(group, list, kind));  // a one-file page's saved view: its link
  applyLink(lab, location.hash, { fromLoad: true });
}

$('file-hint').remove();  // the script runs: not opened from disk (base.css)
placeLab($('lab-main'));
guessMode();
watchHeight('lab');  // inside an iframe: the content height to the host (docs/embedding.md)
document.body.dataset.run = 'loading';
const messages = new MessageList($('messages'));
main(messages).catch((e) => {
  messages.set('start', [`The lab could not start: ${e && e.message ? e.message : e}. Serve the folder over http (npm start) in a current browser.`], 'error');
  $('status').textContent = 'The lab cannot compute or import in this browser session.';
  document.body.dataset.run = 'error';
});
