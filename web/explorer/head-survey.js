// attnx explorer: every head of the open file at once (issue 24): a grid of thumbnails (the dense
// heads, drawn from importHead), and on request the survey (surveyHead: the description and the
// minimal d of lp and jl, as `attnx import --all`) of every head on the worker pool, with
// progress and Cancel; the grid sorts by any survey column (head-import.js sortSurvey); a click
// opens that head as the target. Page only.
import { el, setChildren } from '../common/dom.js';
import { VIRIDIS } from '../common/viridis.js';
import { poolDenseMax, colourise, attentionScale } from '../common/raster.js';
import { Heatmap } from '../common/heatmap.js';
import { fmt } from './format.js';
import { SURVEY_COLUMNS, sortSurvey, everyHead, fileCall } from './head-import.js';

const THUMB_PX = 64;

// The survey card (see the top of this file).
export class HeadSurvey {
  // ctx: { heads (HeadTools), controller, pool }; parent: where the card goes (the page's cards).
  constructor(ctx, parent) {
    Object.assign(this, ctx);
    this.sort = el('select', { id: 'survey-sort' }, SURVEY_COLUMNS.map((c) => el('option', { value: c.key, text: c.label })));
    this.runBtn = el('button', { type: 'button', id: 'survey-run', text: 'Survey every head' });
    this.stopBtn = el('button', { type: 'button', id: 'survey-stop', hidden: true, text: 'Cancel' });
    this.progress = el('progress', { id: 'survey-progress', hidden: true, max: 1, value: 0 });
    this.msg = el('p', { class: 'msg', id: 'survey-msg', role: 'status', 'aria-live': 'polite' });
    this.grid = el('ol', { class: 'head-grid', id: 'survey-grid', 'aria-label': 'Heads of the file' });
    this.title = el('h2', { id: 'head-survey-h', text: 'Every head' });
    this.card = el('section', { class: 'card head-survey', id: 'head-survey', 'aria-labelledby': 'head-survey-h', hidden: true },
      this.title,
      el('p', { class: 'hint', text: 'Each head made sparse by the rule of the import tools; the survey adds the minimal d of lp and jl at the page\'s ε, τ and seed (as attnx import --all), on the worker pool. Click a head to make it the target.' }),
      el('div', { class: 'row-buttons' }, this.runBtn, this.stopBtn, this.progress,
        el('label', { for: 'survey-sort', text: 'Sort by' }), this.sort),
      this.msg, this.grid);
    parent.prepend(this.card);
    this.rows = [];
    this.runBtn.addEventListener('click', () => this.run());
    this.stopBtn.addEventListener('click', () => this.abort && this.abort.abort());
    this.sort.addEventListener('change', () => this.show());
  }

  // A file was opened: one tile per head, thumbnails drawn as importHead returns them (Cancel
  // stops them; so does a survey, which draws its own numbers).
  async setFile(file) {
    if (this.abort) this.abort.abort();
    this.file = file;
    this.surveyedWith = null;
    this.card.hidden = file.info.layers * file.info.heads < 2;
    this.title.textContent = `Every head of ${file.name}`;
    this.rows = everyHead(file.info).map((h) => ({ ...h, thumb: this.tile(h) }));
    this.msg.textContent = '';
    this.show();
    await this.drawThumbs(file);
  }

  // The thumbnails of `file`'s heads, one at a time on the pool, with progress; cancellable.
  async drawThumbs(file) {
    const abort = new AbortController();
    this.abort = abort;
    this.setRunning(true, { survey: false });
    let done = 0;
    for (const r of this.rows) {
      if (abort.signal.aborted) break;
      try {
        const h = await this.pool.run('importHead', fileCall(file, { layer: r.layer, head: r.head }), { signal: abort.signal });
        this.drawThumb(r.thumb, h.values, h.pattern.L);
      } catch (e) {
        if (abort.signal.aborted) break;
        r.thumb.querySelector('.tile-numbers').textContent = e.message;
      }
      this.progress.value = ++done / this.rows.length;
    }
    if (this.abort !== abort) return;  // a new file or a survey took over
    this.setRunning(false);
    if (abort.signal.aborted) this.msg.textContent = `Thumbnails stopped after ${done} of ${this.rows.length} heads.`;
  }

  // A head's tile: a button with its thumbnail and numbers.
  tile({ layer, head }) {
    const canvas = el('canvas', { class: 'thumb', 'aria-hidden': 'true' });
    const btn = el('button', { type: 'button', class: 'tile', 'data-layer': String(layer), 'data-head': String(head) },
      canvas, el('span', { class: 'tile-name', text: `layer ${layer}, head ${head}` }), el('span', { class: 'tile-numbers' }));
    btn.addEventListener('click', () => this.heads.apply({ ...this.heads.options(), layer, head }));
    return el('li', {}, btn);
  }

  drawThumb(li, values, L) {
    const p = poolDenseMax(values, L, L, THUMB_PX, THUMB_PX);
    const cur = this.controller.current;
    const rgba = colourise(p.data, VIRIDIS, attentionScale('log', 1, cur && cur.info.logFloor ? cur.info.logFloor : undefined));
    new Heatmap(li.querySelector('canvas')).draw({ w: p.w, h: p.h, rgba }, L, L);
  }

  // The tiles in the chosen order, each with the survey's numbers when it has them.
  show() {
    for (const r of this.rows) {
      if (!r.description) continue;
      const d = r.description;
      r.thumb.querySelector('.tile-numbers').textContent = `${d.archetype.code} · k ${d.k} · max col ${d.maxColCount} · ${d.inClass ? 'in' : 'out of'} class · kept ${fmt(d.keptMassMin)} · d lp ${r.lpDMin ?? '–'} · jl ${r.jlDMin ?? '–'}`;
    }
    setChildren(this.grid, sortSurvey(this.rows, this.sort.value).map((r) => r.thumb));
  }

  // Surveys every head on the pool (the import tools' rule; the state's ε, τ and seed).
  async run() {
    if (this.abort) this.abort.abort();  // thumbnails still drawing: the survey comes first
    const file = this.file, st = this.controller.st, o = this.heads.options();
    const used = surveySettings(o, st);
    const abort = new AbortController();
    this.abort = abort;
    const signal = abort.signal;
    this.setRunning(true);
    let done = 0;
    const part = new Map();
    const tick = () => { this.progress.value = (done + [...part.values()].reduce((a, b) => a + b, 0)) / this.rows.length; };
    const one = async (r) => {
      const opts = { layer: r.layer, head: r.head, rule: o.rule, softmax: o.softmax, eps: st.eps, tau: st.tau, seed: st.seed };
      const s = await this.pool.run('surveyHead', fileCall(file, opts), { signal, onProgress: (f) => { part.set(r, f); tick(); } });
      Object.assign(r, { description: s.description, lpDMin: s.lpDMin, jlDMin: s.jlDMin });
      part.delete(r);
      done++;
      tick();
      this.show();
    };
    try {
      // As many heads at a time as the pool has workers: each task holds its own copy of the file.
      const queue = this.rows.slice();
      const lane = async () => { while (queue.length && !signal.aborted) await one(queue.shift()); };
      await Promise.all(Array.from({ length: Math.max(1, this.pool.size || 1) }, lane));
      if (signal.aborted) throw new DOMException('cancelled', 'AbortError');
      this.msg.textContent = `Surveyed ${done} heads with ${settingsText(used)}.`;
    } catch (e) {
      this.msg.textContent = signal.aborted ? `Cancelled after ${done} of ${this.rows.length} heads.` : `Survey failed: ${e.message}`;
      if (!signal.aborted) abort.abort();
    }
    if (done > 0) this.surveyedWith = used;
    if (this.abort === abort) this.setRunning(false);
    this.checkSettings();
  }

  /** After a change of the import tools or the state: when the survey's numbers were made with
   *  other settings than the current ones, says which, so that they are not read as current. */
  checkSettings() {
    const w = this.surveyedWith;
    if (!w || !this.file) return;
    const now = surveySettings(this.heads.options(), this.controller.st);
    const stale = Object.keys(w).some((k) => w[k] !== now[k]);
    const note = `The numbers on the tiles were surveyed with ${settingsText(w)}; the settings are now ${settingsText(now)}: survey again to update them.`;
    if (stale) this.msg.textContent = note;
    else if (this.card.classList.contains('stale')) this.msg.textContent = `Surveyed with ${settingsText(w)}.`;
    this.card.classList.toggle('stale', stale);
  }

  // on: a survey or the thumbnails are running (survey: false: the survey can still be started).
  setRunning(on, { survey = true } = {}) {
    this.runBtn.disabled = on && survey;
    this.stopBtn.hidden = !on;
    this.progress.hidden = !on;
    if (on) this.progress.value = 0;
  }
}

// The settings a survey's numbers depend on: the import tools' rule and softmax, the state's ε, τ
// and seed.
function surveySettings(o, st) {
  return { rule: o.rule, softmax: o.softmax, eps: st.eps, tau: st.tau, seed: st.seed };
}

function settingsText(w) {
  return `rule ${w.rule}${w.softmax ? ' after a softmax' : ''}, ε = ${w.eps}, τ = ${w.tau}, seed ${w.seed}`;
}
