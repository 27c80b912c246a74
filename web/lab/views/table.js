// attnx lab: the results table (one row per L; lengths not finished show their task state).
import { el } from '../../common/dom.js';
import { distributionOf } from './distribution.js';

// The per-trial column lists at most this many values (a long sweep's list is in its export).
const TRIALS_LISTED = 50;

const fmtD = (v) => (v === null || v === undefined ? '—' : Number.isInteger(v) ? String(v) : v.toFixed(1));

function columns(delta) {
  const level = delta === null || delta === undefined ? '(1−δ)' : `${+(1 - delta).toFixed(6)}`;
  return ['L', 'trials', 'reached', 'median', `${level}-quantile`, 'd*(L)', 'k', 'max column count', 'd_min per trial'];
}

function head(cols) {
  return el('thead', {}, el('tr', {}, cols.map((c) => el('th', { scope: 'col', text: c }))));
}

// The d_min of each trial as text ("n.r." when not reached): the first TRIALS_LISTED of them and
// a count of the others.
export function trialList(ds) {
  const shown = ds.slice(0, TRIALS_LISTED).map((d) => (d === null ? 'n.r.' : String(d))).join(' ');
  return ds.length > TRIALS_LISTED ? `${shown} … (${ds.length - TRIALS_LISTED} more in the JSON/CSV export)` : shown;
}

// The cells of a finished length (dist: the core's distribution of its d_mins).
function pointCells(p, dist) {
  const { reached, trials } = dist;
  const outside = p.in_class === false;
  const num = (v, warn = false) => el('td', { class: warn ? 'num warn' : 'num', text: v });
  return [
    num(String(trials)),
    num(`${reached}/${trials}`, reached < trials),
    num(fmtD(p.median)),
    num(fmtD(p.quantile)),
    num(p.d_star === null ? '—' : String(Math.round(p.d_star))),
    num(fmtD(p.k)),
    el('td', {
      class: outside ? 'num warn' : 'num',
      title: outside ? 'Columns have more than k nonzeros: outside the theorem\'s class' : null,
      text: p.max_col_count === null ? '—' : `${p.max_col_count}${outside ? ' (outside the class)' : ''}`,
    }),
    el('td', { class: 'trials', text: trialList(p.d_mins) }),
  ];
}

function row(L, p, dist, state, span) {
  const th = el('th', { scope: 'row', text: String(L) });
  if (p) return el('tr', {}, th, pointCells(p, dist));
  return el('tr', {}, th, el('td', { class: `state state-${state.split(' ')[0]}`, colspan: span, text: state }));
}

// Fills `tableEl` (a <table>, emptied first). res: { params, points } or null; core: the module's
// API on this thread; gridLs: the lengths requested; states: Map L -> task state text for lengths
// without a point ('not run' otherwise).
export function renderTable(tableEl, { res, core, gridLs = [], states = new Map() }) {
  const cols = columns(res && res.params ? res.params.delta : null);
  const points = res ? res.points : [];
  const byL = new Map(points.map((p) => [p.L, p]));
  const Ls = [...new Set([...gridLs, ...byL.keys()])].sort((a, b) => a - b);
  const body = el('tbody', {}, Ls.map((L) => {
    const p = byL.get(L);
    return row(L, p, p && distributionOf(core, p), states.get(L) || 'not run', cols.length - 1);
  }));
  if (!Ls.length) body.append(el('tr', {}, el('td', { class: 'empty', colspan: cols.length, text: 'No results yet: run a sweep or import a result.' })));
  const caption = el('caption', { text: 'Minimal d per length: every trial, median, (1−δ)-quantile and the d*(L) estimate' });
  tableEl.replaceChildren(caption, head(cols), body);
}
