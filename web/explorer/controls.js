// attnx web: the settings form, built from the API's pattern description and the state table.
// Every input is labelled; invalid input shows a message naming the field and its range and
// leaves the state unchanged.
import { el } from './dom.js';
import { parseField } from '../common/hashstate.js';
import { familyOf } from './patterns-info.js';

const LABELS = {
  pattern: ['Pattern family', 'Which sparse target A to build.'],
  L: ['Length L', 'Tokens (A is L × L).'],
  weights: ['Weights', 'How the support of each row is weighted before rows are normalised.'],
  wMin: ['w_min', 'Random weights are uniform in [w_min, 1].'],
  decay: ['Decay', 'A_ij ∝ (1 + |i − j|)^−decay.'],
  seed: ['Seed', 'One seed reproduces the pattern and the projection P.'],
  eps: ['ε (ratio tolerance)', '(R): log-ratios on the support within ε.'],
  tau: ['τ (zero tolerance)', '(Z): off-support entries at most τ × support entries.'],
  delta: ['δ (failure prob.)', 'Used by the d*(L) estimate only.'],
  d: ['Hidden size d', 'Columns of P; X has 2d columns.'],
  scale: ['Colour scale of A and M', ''],
  ref: ['Ratio error relative to', ''],
};
const RADIO = {
  scale: [['lin', 'linear'], ['log', 'log₁₀']],
  ref: [['mean', 'row mean'], ['min', 'row minimum']],
};
const WEIGHT_LABELS = { uniform: 'uniform', random: 'random [w_min, 1]', decaying: 'decaying with |i − j|' };
const DSLIDER = 8;  // d = round(2^(x / DSLIDER))

function bound(f, key, st) {
  const v = f[key];
  return typeof v === 'function' ? v(st) : v;
}

export class Controls {
  constructor({ info, table, containers, onChange, onNewSeed }) {
    this.info = info;
    this.table = table;
    this.onChange = onChange;
    this.fields = {};
    this.state = null;
    const famSelect = el('select', { id: 'f-pattern' },
      info.families.map((f) => el('option', { value: f.name, text: f.label })));
    this.addField(containers.pattern, 'pattern', famSelect);
    this.addNumber(containers.pattern, 'L');
    const params = new Map();
    for (const f of info.families) for (const p of f.params) if (!params.has(p.name)) params.set(p.name, p);
    for (const [name, p] of params) this.addNumber(containers.pattern, name, [p.label, '']);
    const wSel = el('select', { id: 'f-weights' }, info.weights.map((w) => el('option', { value: w, text: WEIGHT_LABELS[w] || w })));
    this.addField(containers.pattern, 'weights', wSel);
    this.addNumber(containers.pattern, 'wMin', null, 'any');
    this.addNumber(containers.pattern, 'decay', null, 'any');
    const seedBtn = el('button', { type: 'button', id: 'new-seed', text: 'New', 'aria-label': 'Draw a new random seed' });
    seedBtn.addEventListener('click', () => onNewSeed());
    this.addNumber(containers.pattern, 'seed', null, 1, seedBtn);

    this.addNumber(containers.construct, 'eps', null, 'any');
    this.addNumber(containers.construct, 'tau', null, 'any');
    this.addNumber(containers.construct, 'delta', null, 'any');
    const dmax = bound(table.d, 'max', {});
    const slider = el('input', { type: 'range', class: 'slider', id: 'f-d-slider', min: 0, max: Math.round(DSLIDER * Math.log2(Math.min(dmax, 8192))), step: 1, 'aria-label': 'Hidden size d (logarithmic slider)' });
    this.addNumber(containers.construct, 'd');
    this.fields.d.root.append(slider);
    slider.addEventListener('input', () => {
      const v = Math.max(1, Math.round(2 ** (Number(slider.value) / DSLIDER)));
      this.fields.d.input.value = String(v);
      this.commit('d', String(v));
    });
    this.dSlider = slider;

    this.addRadio(containers.view, 'scale');
    this.addRadio(containers.view, 'ref');
  }

  addField(parent, name, input, labelOverride, extra) {
    const [label, hint] = labelOverride || LABELS[name] || [name, ''];
    input.id = input.id || `f-${name}`;
    input.name = name;
    const lab = el('label', { for: input.id, text: label });
    const hintEl = el('p', { class: 'hint', id: `h-${name}`, text: hint });
    const err = el('p', { class: 'field-error', id: `e-${name}`, role: 'alert' });
    err.hidden = true;
    input.setAttribute('aria-describedby', `h-${name} e-${name}`);
    const root = el('div', { class: `field${input.tagName === 'SELECT' ? ' wide' : ''}`, 'data-name': name }, lab, el('div', { class: 'ctl' }, input, extra), hintEl, err);
    parent.append(root);
    const ev = input.tagName === 'SELECT' ? 'change' : 'input';
    input.addEventListener(ev, () => this.commit(name, input.value));
    if (ev === 'input') input.addEventListener('change', () => this.commit(name, input.value, true));
    this.fields[name] = { root, input, hint: hintEl, err, baseHint: hint, label: lab };
    return root;
  }

  addNumber(parent, name, labelOverride, step = 1, extra) {
    const input = el('input', { type: 'number', inputmode: step === 1 ? 'numeric' : 'decimal', step });
    return this.addField(parent, name, input, labelOverride, extra);
  }

  addRadio(parent, name) {
    const [label] = LABELS[name];
    const opts = el('div', { class: 'opts', role: 'radiogroup', 'aria-labelledby': `l-${name}` });
    const inputs = RADIO[name].map(([v, t]) => {
      const id = `f-${name}-${v}`;
      const r = el('input', { type: 'radio', name, id, value: v });
      r.addEventListener('change', () => r.checked && this.commit(name, v));
      opts.append(el('label', { for: id }, r, t));
      return r;
    });
    const root = el('div', { class: 'field radio', 'data-name': name }, el('span', { id: `l-${name}`, text: label }), opts);
    parent.append(root);
    this.fields[name] = { root, radios: inputs };
  }

  commit(name, raw, final = false) {
    const f = this.table[name];
    const r = parseField(name, f, String(raw).trim(), this.state);
    if (r.error) {
      this.setError(name, r.error);
      return;
    }
    this.setError(name, null);
    if (final && this.fields[name].input) this.fields[name].input.value = String(r.value);
    if (this.state[name] !== r.value) this.onChange(name, r.value);
  }

  setError(name, msg) {
    const fd = this.fields[name];
    if (!fd || !fd.err) return;
    fd.err.hidden = !msg;
    fd.err.textContent = msg || '';
    fd.input.setAttribute('aria-invalid', msg ? 'true' : 'false');
  }

  // Shows the state: values, the chosen family's parameters, ranges in hints and min/max attributes.
  sync(st) {
    this.state = st;
    const fam = familyOf(this.info, st.pattern);
    const famParams = new Map(fam.params.map((p) => [p.name, p]));
    for (const [name, fd] of Object.entries(this.fields)) {
      const f = this.table[name];
      if (fd.radios) {
        for (const r of fd.radios) r.checked = r.value === st[name];
        continue;
      }
      const isParam = !(name in LABELS);
      let visible = true;
      if (isParam) visible = famParams.has(name);
      if (name === 'weights') visible = st.pattern !== 'custom';
      if (name === 'wMin') visible = st.pattern !== 'custom' && st.weights === 'random';
      if (name === 'decay') visible = st.pattern !== 'custom' && st.weights === 'decaying';
      fd.root.hidden = !visible;
      if (isParam && famParams.has(name)) fd.label.textContent = `${famParams.get(name).label} (${name})`;
      if (f.type === 'int' || f.type === 'number') {
        const lo = bound(f, 'min', st), hi = bound(f, 'max', st);
        fd.input.min = String(lo);
        fd.input.max = String(hi);
        const range = f.type === 'int' ? `${lo} – ${hi}` : `${f.minOpen ? '(' : '['}${lo}, ${hi}${f.maxOpen ? ')' : ']'}`;
        fd.hint.textContent = `${fd.baseHint ? `${fd.baseHint} ` : ''}Range ${range}.`;
      }
      if (document.activeElement !== fd.input || fd.input.tagName === 'SELECT') fd.input.value = String(st[name]);
      if (fd.err && !fd.err.hidden && document.activeElement !== fd.input) this.setError(name, null);
    }
    this.dSlider.value = String(Math.round(DSLIDER * Math.log2(Math.max(1, st.d))));
  }
}
