// attnx lab: the sweep settings form. Every field validates as you type (the message names the
// field and its range); the state only takes valid values, so Run always sends a valid request.
import { buildTable, checkField, scalingFamilies, familyOf, minL, MAX_L } from './state.js';

const FIELD_TEXT = {
  Ls: { label: 'Lengths L', hint: `comma-separated, ascending, 2–${MAX_L}` },
  pattern: { label: 'Pattern family', hint: 'families that scale with L' },
  weights: { label: 'Weights on the support' },
  wMin: { label: 'w_min (random weights)', hint: 'uniform in [w_min, 1], then normalised' },
  decay: { label: 'decay (decaying weights)', hint: 'A_ij ∝ (1 + |i−j|)^−decay' },
  eps: { label: 'ε (ratio tolerance)', hint: 'condition (R), > 0' },
  tau: { label: 'τ (zero ratio)', hint: 'condition (Z), in (0, 1)' },
  delta: { label: 'δ (failure probability)', hint: 'the plot marks the (1−δ)-quantile' },
  trials: { label: 'Trials T per length', hint: '1–1000' },
  step: { label: 'd step', hint: 'd is searched on step, 2·step, …' },
  dmax: { label: 'd_max', hint: 'larger d_min counts as not reached' },
  seed: { label: 'Master seed', hint: 'same seed, same numbers as attnx sweep' },
};

function mk(tag, attrs = {}, parent = null, textValue = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  if (textValue !== null) e.textContent = textValue;
  if (parent) parent.appendChild(e);
  return e;
}

export class Controls {
  constructor(root, info, onChange) {
    this.root = root;
    this.info = info;
    this.table = buildTable(info);
    this.onChange = onChange;
    this.fields = new Map();   // name -> { wrap, input, msg }
    this.invalid = new Map();  // name -> message
    this.state = null;
    this.build();
  }

  build() {
    const r = this.root;
    r.textContent = '';
    const sets = [
      ['Sweep', ['Ls', 'trials', 'seed']],
      ['Target pattern A', ['pattern', ...this.paramNames(), 'weights', 'wMin', 'decay']],
      ['Tolerances', ['eps', 'tau', 'delta']],
      ['Search for d', ['step', 'dmax']],
    ];
    for (const [legendText, names] of sets) {
      const fs = mk('fieldset', {}, r);
      mk('legend', {}, fs, legendText);
      for (const n of names) this.addField(fs, n);
    }
  }

  paramNames() {
    const seen = [];
    for (const f of scalingFamilies(this.info)) for (const p of f.params) if (!seen.includes(p.name)) seen.push(p.name);
    return seen;
  }

  paramLabel(name) {
    const fam = familyOf(this.info, this.state ? this.state.pattern : 'random');
    const p = fam.params.find((q) => q.name === name);
    return p ? `${name} (${p.label})` : name;
  }

  addField(parent, name) {
    const f = this.table[name];
    const id = `f-${name}`;
    const wrap = mk('div', { class: 'field', 'data-name': name }, parent);
    const label = mk('label', { for: id }, wrap, (FIELD_TEXT[name] && FIELD_TEXT[name].label) || name);
    let input;
    if (f.type === 'enum') {
      input = mk('select', { id, name }, wrap);
      const labels = name === 'pattern' ? new Map(scalingFamilies(this.info).map((x) => [x.name, x.label])) : new Map();
      for (const v of f.values) mk('option', { value: v }, input, labels.get(v) || v);
      input.addEventListener('change', () => this.edit(name, input.value));
    } else {
      const numeric = f.type === 'int' || f.type === 'number';
      input = mk('input', {
        id, name, type: 'text', inputmode: numeric ? (f.type === 'int' ? 'numeric' : 'decimal') : undefined,
        spellcheck: 'false', autocomplete: 'off',
      }, wrap);
      input.addEventListener('input', () => this.edit(name, input.value, true));
      input.addEventListener('change', () => this.edit(name, input.value));
    }
    const hintText = FIELD_TEXT[name] && FIELD_TEXT[name].hint;
    const hint = mk('span', { class: 'hint', id: `${id}-hint` }, wrap, hintText || '');
    const msg = mk('span', { class: 'field-msg', id: `${id}-msg`, role: 'alert' }, wrap);
    input.setAttribute('aria-describedby', `${id}-hint ${id}-msg`);
    this.fields.set(name, { wrap, input, msg, label, hint });
  }

  // Shows only the chosen family's parameters and the chosen weights' option; refreshes ranges.
  refreshVisibility() {
    const st = this.state;
    const fam = familyOf(this.info, st.pattern);
    const L0 = minL(st.Ls);
    for (const n of this.paramNames()) {
      const p = fam.params.find((q) => q.name === n);
      const fld = this.fields.get(n);
      fld.wrap.hidden = !p;
      if (p) {
        fld.label.textContent = `${n} (${p.label})`;
        const hi = p.max === 'L' ? L0 : p.max === 'L-1' ? L0 - 1 : p.max;
        fld.hint.textContent = `integer ${p.min}–${Math.max(p.min, hi)} (smallest L is ${L0})`;
      }
    }
    this.fields.get('wMin').wrap.hidden = st.weights !== 'random';
    this.fields.get('decay').wrap.hidden = st.weights !== 'decaying';
  }

  setState(st) {
    this.state = { ...st };
    this.invalid.clear();
    for (const [name, fld] of this.fields) {
      const v = st[name];
      fld.input.value = v === undefined ? '' : String(v);
      fld.input.removeAttribute('aria-invalid');
      fld.msg.textContent = '';
    }
    this.refreshVisibility();
  }

  // Re-validates the dependent fields (family parameters depend on the grid, dmax on step).
  revalidate(names) {
    for (const n of names) {
      const fld = this.fields.get(n);
      if (!fld || fld.wrap.hidden) { this.clearError(n); continue; }
      const r = checkField(this.table, this.state, n, fld.input.value);
      if (r.error) this.setError(n, r.error);
      else { this.clearError(n); this.state[n] = r.value; }
    }
  }

  setError(name, msg) {
    const fld = this.fields.get(name);
    this.invalid.set(name, msg);
    fld.input.setAttribute('aria-invalid', 'true');
    fld.msg.textContent = msg;
  }

  clearError(name) {
    const fld = this.fields.get(name);
    this.invalid.delete(name);
    fld.input.removeAttribute('aria-invalid');
    fld.msg.textContent = '';
  }

  edit(name, raw, typing = false) {
    const r = checkField(this.table, this.state, name, raw);
    if (r.error) {
      // While typing, an incomplete number ("0.", "") is not yet an error worth shouting about.
      if (!(typing && /^\s*$|[.eE+-]$/.test(raw))) this.setError(name, r.error);
      this.onChange(this.state, { valid: false });
      return;
    }
    this.clearError(name);
    this.state[name] = r.value;
    if (name === 'pattern' || name === 'weights' || name === 'Ls') this.refreshVisibility();
    if (name === 'Ls' || name === 'pattern') this.revalidate(this.paramNames());
    if (name === 'step') this.revalidate(['dmax']);
    if (name === 'dmax') this.revalidate(['step']);
    this.onChange(this.state, { valid: this.valid() });
  }

  valid() {
    for (const n of this.invalid.keys()) if (!this.fields.get(n).wrap.hidden) return false;
    return true;
  }

  firstError() {
    for (const [n, m] of this.invalid) if (!this.fields.get(n).wrap.hidden) return { name: n, message: m };
    return null;
  }

  focusField(name) {
    const f = this.fields.get(name);
    if (f) f.input.focus();
  }

  setDisabled(disabled) {
    for (const { input } of this.fields.values()) input.disabled = disabled;
  }
}
