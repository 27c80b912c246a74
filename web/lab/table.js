// attnx lab: the results table (one row per L; pending lengths show their state).
const fmtD = (v) => (v === null || v === undefined ? '—' : Number.isInteger(v) ? String(v) : v.toFixed(1));

function cell(tr, tag, textValue, cls) {
  const c = document.createElement(tag);
  c.textContent = textValue;
  if (cls) c.className = cls;
  tr.appendChild(c);
  return c;
}

// res: { params, points } or null; gridLs: the lengths requested; states: Map L -> task state.
export function renderTable(tableEl, { res, gridLs = [], states = new Map() }) {
  const delta = res && res.params ? res.params.delta : null;
  tableEl.textContent = '';
  const cap = document.createElement('caption');
  cap.textContent = 'Minimal d per length: every trial, median, (1−δ)-quantile and the d*(L) estimate';
  tableEl.appendChild(cap);
  const head = document.createElement('thead');
  const hr = document.createElement('tr');
  const cols = ['L', 'trials', 'reached', 'median', `${delta === null || delta === undefined ? '(1−δ)' : `${+(1 - delta).toFixed(6)}`}-quantile`, 'd*(L)', 'k', 'max column count', 'd_min per trial'];
  for (const c of cols) {
    const th = cell(hr, 'th', c);
    th.scope = 'col';
  }
  head.appendChild(hr);
  tableEl.appendChild(head);
  const body = document.createElement('tbody');
  const points = res ? res.points : [];
  const Ls = [...new Set([...gridLs, ...points.map((p) => p.L)])].sort((a, b) => a - b);
  if (!Ls.length) {
    const tr = document.createElement('tr');
    const td = cell(tr, 'td', 'No results yet: run a sweep or import a result.', 'empty');
    td.colSpan = cols.length;
    body.appendChild(tr);
  }
  for (const L of Ls) {
    const p = points.find((q) => q.L === L);
    const tr = document.createElement('tr');
    const th = cell(tr, 'th', String(L));
    th.scope = 'row';
    if (!p) {
      const st = states.get(L) || 'not run';
      const td = cell(tr, 'td', st, `state state-${st.split(' ')[0]}`);
      td.colSpan = cols.length - 1;
      body.appendChild(tr);
      continue;
    }
    const reached = p.d_mins.filter((d) => d !== null).length;
    cell(tr, 'td', String(p.d_mins.length), 'num');
    cell(tr, 'td', `${reached}/${p.d_mins.length}`, reached < p.d_mins.length ? 'num warn' : 'num');
    cell(tr, 'td', fmtD(p.median), 'num');
    cell(tr, 'td', fmtD(p.quantile), 'num');
    cell(tr, 'td', p.d_star === null ? '—' : String(Math.round(p.d_star)), 'num');
    cell(tr, 'td', fmtD(p.k), 'num');
    const mc = cell(tr, 'td', p.max_col_count === null ? '—' : `${p.max_col_count}${p.in_class === false ? ' (outside the class)' : ''}`, p.in_class === false ? 'num warn' : 'num');
    if (p.in_class === false) mc.title = 'Columns have more than k nonzeros: outside the theorem\'s class';
    cell(tr, 'td', p.d_mins.map((d) => (d === null ? 'n.r.' : String(d))).join(' '), 'trials');
    body.appendChild(tr);
  }
  tableEl.appendChild(body);
}
