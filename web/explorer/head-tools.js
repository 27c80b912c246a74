// attnx explorer: the "Import a model's attention head" tools (page-panel.js headTools): a file
// opened, dropped on the tools (file-drop.js) or the sample is read by the core (readAttention on the worker pool); the
// chosen layer, head, rule and softmax make the target (importHead), shown like any custom
// pattern, with the dense head beside A and M (views/head-figure.js) and the core's readout by the
// verdict. The core's refusals are shown as they are (they name the file and the problem); the
// previous target stays. The file stays a Blob on this thread: the workers read and parse it
// (head-import.js fileCall), so opening 100 MB costs the page no long task. Links carry the
// head's fields, never the file.
import { el, setChildren } from '../common/dom.js';
import { MAX_HEAD_FILE_BYTES, SAMPLE_URL, SAMPLE_NAME, fileCall, openRefusal, importedTarget, headReadout } from './head-import.js';

const $ = (id) => document.getElementById(id);

// The head tools (see the top of this file).
export class HeadTools {
  // ctx: { schema, table, pool, controller, figure (HeadFigure), readout (the element by the verdict) }
  constructor(ctx) {
    Object.assign(this, ctx);
    this.c = ctx.controller;
    this.file = null;      // { blob: Blob (never read here), name, info (readAttention) }
    this.imported = null;  // the link fields of the head shown in the figure
    this.seq = 0;          // apply() calls: a later one supersedes an earlier one
    this.fileSeq = 0;      // open() calls: a later file supersedes an earlier one, not a head change
    this.onFile = null;    // called with the file once read (the survey)
    this.wire();
  }

  wire() {
    $('head-file').addEventListener('change', async (ev) => {
      const f = ev.target.files && ev.target.files[0];
      ev.target.value = '';
      if (f) await this.openBlob(f);
    });
    $('head-sample').addEventListener('click', () => this.openSample());
    for (const id of ['head-layer', 'head-head', 'head-rule', 'head-softmax']) $(id).addEventListener('change', () => this.apply());
  }

  // Shows text in the tools' status line (kind: '' | 'ok' | 'error').
  message(text, kind = '') {
    const m = $('head-msg');
    m.textContent = text;
    m.className = `msg ${kind}`;
  }

  // A File (opened or dropped): refused above MAX_HEAD_FILE_BYTES, else handed to the core.
  async openBlob(f) {
    $('head-tools').open = true;
    if (f.size > MAX_HEAD_FILE_BYTES) {
      this.message(`${f.name}: the file has ${f.size} bytes; the page reads at most ${MAX_HEAD_FILE_BYTES} (use attnx import on the command line).`, 'error');
      return;
    }
    await this.open(f, f.name);
  }

  async openSample() {
    $('head-tools').open = true;
    this.message(`Loading the sample ${SAMPLE_NAME}…`);
    try {
      const res = await fetch(SAMPLE_URL);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      await this.open(await res.blob(), SAMPLE_NAME);
    } catch (e) {
      this.message(`${SAMPLE_NAME}: the sample could not be loaded (${e.message}).`, 'error');
    }
  }

  // Reads the file's shape and tokens with the core (on the pool), offers its layers and heads
  // (the link's when they exist in it) and imports the chosen head. On a refusal the previous
  // file stays.
  async open(blob, name) {
    const seq = ++this.fileSeq;
    this.message(`Reading ${name}…`);
    let info;
    try {
      info = await this.pool.run('readAttention', fileCall({ blob, name }));
    } catch (e) {
      if (seq === this.fileSeq) this.message(openRefusal(name, e.message), 'error');
      return;
    }
    if (seq !== this.fileSeq) return;
    this.file = { blob, name, info };
    const st = this.c.st;
    this.fill($('head-layer'), info.layers, st.head >= 0 && st.layer < info.layers ? st.layer : 0);
    this.fill($('head-head'), info.heads, st.head >= 0 && st.head < info.heads ? st.head : 0);
    $('head-rule').value = st.rule;
    $('head-softmax').checked = st.softmax;
    $('head-fields').hidden = false;
    if (this.onFile) this.onFile(this.file);
    await this.apply();
  }

  // Fills a select with 0..n-1, choosing `value`.
  fill(select, n, value) {
    setChildren(select, Array.from({ length: n }, (_, i) => el('option', { value: String(i), text: String(i) })));
    select.value = String(value);
    select.disabled = n === 1;
  }

  // The choices of the form as the core's import options.
  options() {
    return { layer: Number($('head-layer').value), head: Number($('head-head').value), rule: $('head-rule').value.trim(), softmax: $('head-softmax').checked };
  }

  /** Imports head `opts` (default: the form's) of the open file as the target. */
  async apply(opts = this.options()) {
    const f = this.file;
    if (!f) return;
    const seq = ++this.seq;
    this.message(`Reading head ${opts.head} of layer ${opts.layer} of ${f.name}…`);
    let r;
    try {
      r = await this.pool.run('importHead', fileCall(f, opts));
    } catch (e) {
      if (seq === this.seq) this.message(`${e.message}. The previous target is kept.`, 'error');
      return;
    }
    if (seq !== this.seq) return;
    const { pattern, fields } = importedTarget(r);
    this.fill($('head-layer'), f.info.layers, fields.layer);
    this.fill($('head-head'), f.info.heads, fields.head);
    $('head-rule').value = fields.rule;
    this.imported = fields;
    const title = `${f.name}: layer ${fields.layer}, head ${fields.head}`;
    this.figure.set({ values: r.values, L: r.pattern.L, tokens: r.tokens, title });
    this.c.figures.setTokens(r.tokens);  // the heatmaps' axes and readouts name the head's tokens
    this.showReadout(title, r.description);
    this.message(`${title} with rule ${fields.rule}${fields.softmax ? ' after a softmax' : ''}: ${r.description.nnz} nonzeros, L = ${r.pattern.L}.`, 'ok');
    this.c.importTarget(pattern, fields);
  }

  // The readout by the verdict: the core's kept mass, archetype and class of the head.
  showReadout(title, d) {
    const items = headReadout(d).map((it) => el('span', { class: `hr-${it.key}`, 'data-head': it.key, 'data-value': String(it.value), text: it.text }));
    setChildren(this.readout, [el('strong', { text: `${title} (${d.rule})` }), ...items]);
    this.readout.hidden = false;
  }

  /**
   * After every state change: the figure and readout stay only while the target is the head they
   * show; a link naming a head whose file is not open says so; a new scale redraws the head.
   */
  afterChange(st, changed) {
    const same = this.imported && st.head >= 0 && ['layer', 'head', 'rule', 'softmax'].every((k) => st[k] === this.imported[k]);
    if (!same && this.imported) {
      this.imported = null;
      this.figure.set(null);
      this.c.figures.setTokens(null);
      this.readout.hidden = true;
    }
    if (!this.imported && st.head >= 0) {
      const how = `head ${st.head} of layer ${st.layer} of a file, made sparse with ${st.rule}${st.softmax ? ' after a softmax' : ''}`;
      this.message(st.cp
        ? `This target is ${how}. Links do not carry files: open it again to see the dense head.`
        : `This link names ${how}, but that target was too large for a link, so the target shown is not it: open the file again.`, st.cp ? '' : 'error');
    }
    if (changed.includes('scale')) this.redraw();
  }

  // Draws the dense head on the scale and in the zoom window of the result shown.
  redraw() {
    const cur = this.c.current, b = this.c.figures.budgets();
    if (cur) this.figure.draw(this.c.st.scale, cur.info, b.budget, this.c.figures.window(this.c.st, cur), b.css);
  }
}
