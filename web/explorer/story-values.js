// attnx explorer: the values a story's placeholders are filled from (story-text.js), for the state
// shown, DOM-free: the newest construct result drawn and its tolerances, its precision report, and
// the minimal d of the state, found on the worker pool (the core's minD, the search of "Find the
// minimal d") when the step shown names {dmin}. Values of other settings are dropped as soon as
// the settings change, so a step never shows the numbers of the one before.
import { minDOptions, minDGrid, notSearchable } from './d-search.js';
import { needsOf } from './story-text.js';

const MAX_SEARCHES = 32;  // minimal-d outcomes kept (by settings)

// The placeholder values (see the top of this file).
export class StoryValues {
  // { pool, schema, table, getState(), getCustom(), askPrecision(): computes the precision report
  //   of the result shown (jl's is not computed unasked), changed(): the values changed }
  constructor(opts) {
    Object.assign(this, opts);
    this.key = null;          // the settings (state.js settingsKey) the values are about
    this.result = null;       // story-text.js resultForStory of the newest result drawn
    this.tol = null;
    this.precision = null;    // the precision report of that result (precision.js)
    this.searches = new Map(); // minD options (text) -> { state, dMin, dmax }
    this.search = null;       // { key, ctrl } of the running minimal-d search
    this.text = '';           // the text of the step shown ('' without a story)
  }

  // { result, tol, precision, dmin } for story-text.js (dmin: the state's search, if any).
  get values() {
    return { result: this.result, tol: this.tol, precision: this.precision, dmin: this.dminOf(this.getState()) };
  }

  // The settings became `key` (a computation started): values of other settings are dropped.
  computing(key) {
    if (key === this.key) return;
    this.stopStaleSearch();
    this.key = key;
    this.result = null;
    this.precision = null;
    this.changed();
  }

  // The result drawn for settings key (resultForStory), with tolerances tol.
  resulted(result, tol, key) {
    Object.assign(this, { result, tol, key });
    this.fetchNeeded();
    this.changed();
  }

  // The precision report of the result shown changed.
  precisionReport(report) {
    this.precision = report;
    this.fetchNeeded();
    this.changed();
  }

  // The step shown is now `text` ('' for none): asks for what its placeholders need.
  showing(text) {
    this.text = text || '';
    this.stopStaleSearch();
    this.fetchNeeded();
  }

  // Stops the running minimal-d search when the step shown no longer asks for it: its text names
  // no {dmin}, or the settings are no longer the ones it searches (the pool is free for the rest).
  stopStaleSearch() {
    if (!this.search) return;
    const wanted = this.text && needsOf(this.text).dmin ? this.searchOf(this.getState()).key : null;
    if (wanted !== this.search.key) this.search.ctrl.abort();
  }

  // Asks for the precision report or the minimal d when the step shown names them and the result
  // they belong to is drawn.
  fetchNeeded() {
    if (!this.result || !this.text) return;
    const needs = needsOf(this.text);
    if (needs.precision && this.precision && this.precision.state === 'available') this.askPrecision();
    if (needs.dmin) this.startSearch(this.getState());
  }

  // The minimal-d search of state st: { options, dmax } or { unsearchable: true }.
  searchOf(st) {
    if (!st || notSearchable(this.schema, st)) return { unsearchable: true };
    const grid = minDGrid(this.schema, this.table, st);
    const options = minDOptions(this.schema, st, this.getCustom(), grid);
    return { options, dmax: grid.dmax, key: JSON.stringify(options) };
  }

  // The outcome of state st's search: { state: pending | done | none | unsearchable | unavailable }.
  dminOf(st) {
    const s = this.searchOf(st);
    if (s.unsearchable) return { state: 'unsearchable' };
    return this.searches.get(s.key) || { state: 'pending', dmax: s.dmax };
  }

  // Runs state st's minimal-d search on the pool (once per settings; a running search of other
  // settings is stopped).
  startSearch(st) {
    const s = this.searchOf(st);
    if (s.unsearchable || this.searches.has(s.key)) return;
    if (this.search) this.search.ctrl.abort();
    const ctrl = new AbortController();
    const entry = { state: 'pending', dmax: s.dmax };
    this.search = { key: s.key, ctrl };
    this.searches.set(s.key, entry);
    if (this.searches.size > MAX_SEARCHES) this.searches.delete(this.searches.keys().next().value);
    this.pool.run('minD', s.options, { signal: ctrl.signal }).then((r) => {
      Object.assign(entry, r.dMin === null ? { state: 'none' } : { state: 'done', dMin: r.dMin });
    }, (e) => {
      if (e && e.name === 'AbortError') this.searches.delete(s.key);
      else entry.state = 'unavailable';
    }).finally(() => {
      if (this.search && this.search.ctrl === ctrl) this.search = null;
      this.changed();
    });
  }
}
