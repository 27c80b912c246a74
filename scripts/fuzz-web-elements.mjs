// attnx: the explorer-elements and lab-elements surfaces of scripts/fuzz-web.mjs: <attnx-explorer>
// or <attnx-lab> (the site's embed/attnx.js) on a host page, created by script with every
// attribute set to a valid or a hostile value, through a lifecycle scenario (fuzz-web-inputs.mjs
// elementCase): one element; its attributes changed once it computed; removed, changed while
// detached and appended again; many changes without waiting; two elements at once. The host page
// is answered by the browser context (page.route); nothing else leaves the test server.
// A case ends as ok, refused (the element shows a message, each naming one of its attributes) or
// BAD: a page error, a console error, an unhandled rejection, a crash, user text rendered as HTML,
// NaN or "undefined" shown, a message naming none of the element's attributes, a connected
// element whose state does not reflect its current attributes (the state the embed's own reader,
// web/embed/attributes.js, gives them, for every attribute given without a message about it), a
// result on show for other settings than the state's, or no idle element within the guard.
import { readAttributes, readLabAttributes, attributeFields } from '../web/embed/attributes.js';
import { FuzzHost, withinGuard } from './fuzz-web-host.mjs';

const HOST = 'fz-element-host.html';
const HOST_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>fz</title>
<script type="module" src="embed/attnx.js"></script></head><body><div id="slot"></div></body></html>`;

/** The host of the element surfaces (one context and page for their cases: FuzzHost). */
export function elementHost(browser, baseUrl) {
  return new FuzzHost(browser, baseUrl, {
    host: HOST, viewport: { width: 1000, height: 900 },
    init: () => {
      window.__results = {};
      document.addEventListener('attnx-result', (e) => { window.__results[e.target.id] = e.detail; });
    },
  });
}

// A new document of the host page, its elements defined; records problems in events.
async function openHost(host, events) {
  const { page } = await host.open((url) => (url === `${host.baseUrl}${HOST}` ? { contentType: 'text/html', body: HOST_HTML } : null), events);
  await page.waitForFunction(() => customElements.get('attnx-explorer') && customElements.get('attnx-lab'), null, { timeout: 30000 });
  return { page };
}

// Waits until every element on the page is idle: started, computed (explorer: its box not busy;
// lab: not loading or running), and stays so for a moment.
async function waitIdle(page, timeout) {
  await page.waitForFunction(() => {
    const idle = (el) => {
      if (!el.started) return false;
      if (el.tagName === 'ATTNX-LAB') return el.lab && !['loading', 'running'].includes(el.runState);
      const box = el.shadowRoot.querySelector('[data-busy]');
      return el.ctl && box && box.dataset.busy === '0';
    };
    const all = [...document.querySelectorAll('attnx-explorer, attnx-lab')];
    const now = performance.now();
    if (!all.every(idle)) { window.__idleSince = null; return false; }
    window.__idleSince = window.__idleSince ?? now;
    return now - window.__idleSince > 250;
  }, null, { timeout, polling: 50 });
}

// Runs the case's scenario on the page (the elements are fz-a and fz-b).
async function act(page, c, timeout) {
  await page.evaluate(({ tag, first, second }) => {
    const make = (id, attrs) => {
      const e = document.createElement(tag);
      e.id = id;
      for (const [k, v] of attrs) e.setAttribute(k, v);
      document.getElementById('slot').append(e);
    };
    make('fz-a', first);
    if (second) make('fz-b', second);
  }, c);
  await waitIdle(page, timeout);
  if (c.scenario === 'attrs' || c.scenario === 'two') return;
  await page.evaluate(async ({ scenario, changes }) => {
    const e = document.getElementById('fz-a');
    const apply = ([k, v]) => (v === null ? e.removeAttribute(k) : e.setAttribute(k, v));
    if (scenario === 'reattach') e.remove();
    for (const ch of changes) {
      apply(ch);
      if (scenario === 'rapid') await new Promise((r) => setTimeout(r, Math.random() < 0.5 ? 0 : 15));
    }
    if (scenario === 'reattach') document.getElementById('slot').append(e);
  }, c);
  await waitIdle(page, timeout);
}

// What each element shows and holds once idle.
function snapshot(page) {
  return page.evaluate(() => [...document.querySelectorAll('attnx-explorer, attnx-lab')].map((el) => {
    const root = el.shadowRoot;
    const text = (sel) => [...root.querySelectorAll(sel)].map((n) => n.textContent).join(' | ');
    const lab = el.tagName === 'ATTNX-LAB';
    return {
      id: el.id, lab, attrs: [...el.attributes].filter((a) => a.name !== 'id').map((a) => [a.name, a.value]),
      st: lab ? el.lab.store.get() : { ...el.st },
      msgs: [...root.querySelectorAll('#messages li')].map((li) => li.textContent),
      shown: lab ? text('#status, #results-table, #fit-sentence') : text('#metrics, #summary, #status-text'),
      result: window.__results[el.id] || null, runs: el.runs,
      injected: !!(document.querySelector('[data-fz]') || root.querySelector('[data-fz]')),
    };
  }).concat([{ rej: window.__rej.slice() }]));
}

const same = (a, b) => a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b));

// The BAD reasons of one element's snapshot s (ctx: schema and tables).
export function elementReasons(s, ctx) {
  const r = [];
  if (s.injected) r.push('user text rendered as HTML ([data-fz] element in the page)');
  // (A message may quote the attribute's own text: (got "NaN").)
  const m = /NaN|undefined/.exec(`${s.shown} | ${s.msgs.map((x) => x.replace(/\(got ".*"\)/s, '(got …)')).join(' | ')}`);
  if (m) {
    const all = `${s.shown} | ${s.msgs.join(' | ')}`;
    r.push(`${s.id}: "${m[0]}" shown: …${all.slice(Math.max(0, m.index - 80), m.index + 20)}…`);
  }
  // Every message names one of the element's attributes (in its own or the schema's spelling).
  const table = s.lab ? ctx.tables.lab : ctx.tables.explorer;
  const fields = attributeFields(table);
  const names = s.attrs.flatMap(([n]) => [n, fields.get(n) ?? n]);
  for (const msg of s.msgs) {
    if (/^(The attributes ask to run|\+\d+ more)/.test(msg)) continue;
    if (!names.some((n) => msg.includes(n.slice(0, 40)))) r.push(`${s.id}: a message naming none of its attributes: ${msg.slice(0, 160)}`);
  }
  // The state reflects the attributes: every field given without a message about it has the
  // value the embed's reader gives it.
  const read = s.lab ? readLabAttributes(s.attrs, { table, schema: ctx.schema }) : readAttributes(s.attrs, { table, schema: ctx.schema });
  for (const [name] of s.attrs) {
    const field = s.lab ? [...Object.keys(table)].find((k) => k.toLowerCase() === name) : fields.get(name);
    if (!field || !(field in read.state) || ['embed', 'theme', 'present', 'story', 'step'].includes(field)) continue;
    const named = new RegExp(`(^|[^A-Za-z])(${[name, field].map((x) => x.replace(/[^\w-]/g, '\\$&')).join('|')})([^A-Za-z]|$)`);
    if (s.msgs.some((msg) => named.test(msg))) continue;
    if (!same(s.st[field], read.state[field])) r.push(`${s.id}: ${name}="${String(s.attrs.find(([n]) => n === name)[1]).slice(0, 40)}" reads as ${JSON.stringify(read.state[field])} but the element holds ${JSON.stringify(s.st[field])}`);
  }
  // The explorer's result on show is the state's (unless its computing failed, which it says).
  if (!s.lab && s.result && !/Not computed/.test(s.shown)) {
    const res = s.result;
    if (res.L !== s.st.L || res.construction !== s.st.construction || (s.st.construction !== 'moment' && res.d !== s.st.d))
      r.push(`${s.id}: shows the result of L = ${res.L}, d = ${res.d}, ${res.construction} but holds L = ${s.st.L}, d = ${s.st.d}, ${s.st.construction}`);
  }
  return r;
}

/** Runs element case c; never throws. Returns { outcome, reasons, said }. */
/** What case c should show: the messages the embed's reader gives its attributes (none: ok). */
export function expectedMessages(c, ctx) {
  const table = c.tag === 'attnx-lab' ? ctx.tables.lab : ctx.tables.explorer;
  const read = (attrs) => (c.tag === 'attnx-lab' ? readLabAttributes : readAttributes)(attrs, { table, schema: ctx.schema }).errors;
  const final = new Map(c.first);
  for (const [k, v] of c.changes) (v === null ? final.delete(k.toLowerCase()) : final.set(k.toLowerCase(), v));
  return { 'fz-a': read([...final]), ...(c.second ? { 'fz-b': read(c.second) } : {}) };
}

/** Runs element case c on host (elementHost); never throws. Returns { outcome, reasons, said }. A
 *  case that ends BAD closes the host's context (the next case starts a new one). */
export async function runElementCase(host, c, timeout, ctx) {
  const events = [];
  let r;
  try {
    const open = await openHost(host, events);
    const shots = await withinGuard((async () => { await act(open.page, c, timeout); return snapshot(open.page); })(),
      2 * timeout + 5000, `no idle element within ${timeout / 1000} s`);
    const { rej } = shots.pop();
    const reasons = [...events, ...rej.map((v) => `unhandled rejection: ${v}`), ...shots.flatMap((s) => elementReasons(s, ctx))];
    const msgs = shots.flatMap((s) => s.msgs);
    r = { outcome: reasons.length ? 'BAD' : msgs.length ? 'refused' : 'ok', reasons, said: (msgs[0] || '').slice(0, 160) };
  } catch (e) {
    r = { outcome: 'BAD', reasons: [...events, `no result: ${String(e.message).split('\n')[0].slice(0, 200)}`], said: '' };
  }
  if (r.outcome === 'BAD') await host.close();
  return r;
}
