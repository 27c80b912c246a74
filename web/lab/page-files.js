// attnx lab: the page's file buttons: Export JSON/CSV (the core writes them), SVG/PNG of each
// plot (with a caption of the settings), and Import (the core reads and checks the file in a
// worker; a bad file leaves the previous result on show). `app`: the lab's context (mount.js).
import { exportResult, exportSvg, exportPng, importResult } from './files.js';
import { caption, baseName } from './views/source.js';
import { plural, span } from './views/summary.js';

// The plots: their box, file-name suffix and download buttons.
const PLOTS = [
  { box: 'plot-dl', kind: 'd-vs-L', svg: 'dl-svg', png: 'dl-png' },
  { box: 'plot-sd', kind: 'success-vs-d', svg: 'sd-svg', png: 'sd-png' },
];

async function onImport(app, ev) {
  const file = ev.target.files && ev.target.files[0];
  ev.target.value = '';
  if (!file) return;
  const { $ } = app;
  try {
    const res = await importResult(app.pool, file, app.schema.pageLimits.maxSweepFileBytes ?? Infinity);
    app.result = res;
    app.resultKey = null;  // a file's settings are its own
    app.runLs = res.points.map((p) => p.L);
    app.taskStates = new Map();
    app.messages.clear();
    const Ls = res.points.map((p) => p.L);
    $('status').textContent = `Imported ${file.name}: ${plural(Ls.length, 'length')} (L = ${span(Ls[0], Ls[Ls.length - 1])}), ${plural(res.params.trials, 'trial')} each.`;
    app.setRunState('imported', false);
    await app.render.inStages();  // a large result is drawn in several short tasks
    app.setRunState('imported');
  } catch (e) {
    app.messages.set('import', [`Import failed, previous results kept: ${e.message}`], 'error');
  }
}

async function onExport(app, format) {
  if (!app.result) return;
  try {
    await exportResult(app.pool, app.result, format, baseName(app.result));
  } catch (e) {
    app.messages.set('export', [`${format.toUpperCase()} export failed: ${e.message}`], 'error');
  }
}

function wirePlot(app, { box, kind, svg, png }) {
  const { $ } = app;
  const plot = () => $(box).querySelector('svg');
  const name = () => `${baseName(app.result)}-${kind}`;
  $(svg).addEventListener('click', () => {
    if (plot()) exportSvg(plot(), name(), caption(kind, app.result, app.schema));
  });
  $(png).addEventListener('click', async () => {
    if (!plot()) return;
    try {
      await exportPng(plot(), name(), caption(kind, app.result, app.schema));
    } catch (e) {
      app.messages.set('export', [`PNG export failed: ${e.message}`], 'error');
    }
  });
}

// Attaches the export and import handlers to the page's buttons.
export function wireFiles(app) {
  const { $ } = app;
  $('export-json').addEventListener('click', () => onExport(app, 'json'));
  $('export-csv').addEventListener('click', () => onExport(app, 'csv'));
  for (const p of PLOTS) wirePlot(app, p);
  $('import-file').addEventListener('change', (ev) => onImport(app, ev));
}
