// attnx explorer: the settings form, built from the core's schema and the state table: labels,
// units, help sentences, ranges and which fields apply (schema.options[name].applies) are the
// core's. Every input is labelled; invalid input shows a message naming the field and its range
// and leaves the state unchanged.
import { el, setIf } from '../common/dom.js';
import { parseField } from '../common/hashstate.js';
import { familyOf, familyParams, optionApplies } from '../common/schema-table.js';

const RADIO = {
  scale: ['Colour scale of A and M', [['lin', 'linear'], ['log', 'log₁₀']]],
  ref: ['Ratio error relative to', [['mean', 'row mean'], ['min', 'row minimum']]],
};
// The d slider: its value x gives d = round(2^(x / DSLIDER)) (DSLIDER units per octave, read by
// scripts/slider-drag.mjs and scripts/bench-explorer.mjs), moving in DSTEPS steps per octave
// (step DSLIDER / DSTEPS = 0.25: about 2.2 % in d per step).
export const DSLIDER = 8;
export const DSTEPS = 32;
const sliderX = (d) => Math.round(DSTEPS * Math.log2(Math.max(1, d))) * (DSLIDER / DSTEPS);

const bound = (f, key, st) => (typeof f[key] === 'function' ? f[key](st) : f[key]);

// The settings form (see the top of this file).
export class Controls {
  // { schema, table, containers: { pattern, construct, view }, onChange(name, value), onNewSeed(),
  // only: a Set of field names to show at most (default: all; an embed shows a few) }
  // Builds the form into the containers; nothing is shown until sync(state).
  constructor({ schema, table, containers, onChange, onNewSeed, only = null }) {
    this.only = only;
    this.schema = schema;
    this.table = table;
    this.onChange = onChange;
    this.fields = {};
    this.state = null;
    this.params = familyParams(schema);
    this.buildPattern(containers.pattern, onNewSeed);
    if (table.construction) this.addConstruction(containers.construct);
    for (const name of ['eps', 'tau', 'delta']) this.addNumber(containers.construct, name, 'any');
    this.addNumber(containers.construct, 'd');
    this.addDSlider();
    for (const name of Object.keys(RADIO)) this.addRadio(containers.view, name);
  }

  // The pattern fieldset: family, L, every family parameter, weights and their parameters, seed.
  buildPattern(parent, onNewSeed) {
    const { schema, table } = this;
    const opt = (v, text) => el('option', { value: v, text });
    this.addField(parent, 'pattern', el('select', {}, table.pattern.values.map((n) => opt(n, familyOf(schema, n).label))));
    this.addNumber(parent, 'L');
    for (const name of this.params.keys()) this.addNumber(parent, name);
    const weightLabel = new Map(schema.weightings.map((w) => [w.name, w.label]));
    this.addField(parent, 'weights', el('select', {}, table.weights.values.map((w) => opt(w, weightLabel.get(w) || w))));
    this.addNumber(parent, 'wMin', 'any');
    this.addNumber(parent, 'decay', 'any');
    const seedBtn = el('button', { type: 'button', id: 'new-seed', text: 'New', 'aria-label': 'Draw a new random seed' });
    seedBtn.addEventListener('click', () => onNewSeed());
    this.addNumber(parent, 'seed', 1, seedBtn);
  }

  // The construction select (labels: the core's), lp's box U and opt's budget Λ_max.
  addConstruction(parent) {
    const labels = new Map(this.schema.constructions.map((c) => [c.name, c.label]));
    const opts = this.table.construction.values.map((n) => el('option', { value: n, text: labels.get(n) || n }));
    this.addField(parent, 'construction', el('select', {}, opts));
    if (this.table.projection) this.addField(parent, 'projection', el('select', {}, this.table.projection.values.map((n) => el('option', { value: n, text: n }))));
    this.addNumber(parent, 'box', 'any');
    if (this.table.budget) this.addNumber(parent, 'budget', 'any');
  }

  // A logarithmic slider under the d field (d = 2^(x / DSLIDER), up to the table's maximum).
  addDSlider() {
    const max = sliderX(bound(this.table.d, 'max', {}));
    const slider = el('input', { type: 'range', class: 'slider', id: 'f-d-slider', min: 0, max, step: DSLIDER / DSTEPS, 'aria-label': 'Hidden size d (logarithmic slider)' });
    this.fields.d.root.append(slider);
    slider.addEventListener('input', () => {
      const v = Math.max(1, Math.round(2 ** (Number(slider.value) / DSLIDER)));
      this.fields.d.input.value = String(v);
      this.commit('d', String(v));
    });
    this.dSlider = slider;
  }

  // Adds a labelled field for `name` (label, unit and help sentence from the core's schema, an
  // error line) to parent; typing commits the value (see commit).
  addField(parent, name, input, extra) {
    const o = this.schema.options[name];
    const label = `${this.table[name].label || name}${o && o.unit ? ` (${o.unit})` : ''}`, hint = o ? o.help : '';
    input.id = `f-${name}`;
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
  }

  // addField with a number input (step 1: integers; 'any': reals).
  addNumber(parent, name, step = 1, extra) {
    const input = el('input', { type: 'number', inputmode: step === 1 ? 'numeric' : 'decimal', step });
    this.addField(parent, name, input, extra);
  }

  // A radio group for the view field `name` (choices from RADIO).
  addRadio(parent, name) {
    const [label, choices] = RADIO[name];
    const opts = el('div', { class: 'opts', role: 'radiogroup', 'aria-labelledby': `l-${name}` });
    const inputs = choices.map(([v, t]) => {
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

  // Validates a raw value typed for `name`; shows its error, or reports the new value (final:
  // also writes the normalised value back into the input).
  commit(name, raw, final = false) {
    const r = parseField(name, this.table[name], String(raw).trim(), this.state);
    this.setError(name, r.error || null);
    if (r.error) return;
    if (final && this.fields[name].input) this.fields[name].input.value = String(r.value);
    if (this.state[name] !== r.value) this.onChange(name, r.value);
  }

  // Shows (msg) or hides (null) the error line of field `name`.
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
    const famParams = new Map(familyOf(this.schema, st.pattern).params.map((p) => [p.name, p]));
    const shown = (name) => optionApplies(this.schema, name, st) && !(this.only && !this.only.has(name));
    for (const [name, fd] of Object.entries(this.fields)) {
      if (fd.radios) {
        for (const r of fd.radios) r.checked = r.value === st[name];
        setIf(fd.root, 'hidden', !!(this.only && !this.only.has(name)));
        continue;
      }
      const focused = fd.input.getRootNode().activeElement === fd.input;  // in a shadow root too
      setIf(fd.root, 'hidden', !shown(name));
      if (famParams.has(name)) setIf(fd.label, 'textContent', `${famParams.get(name).label} (${name})`);
      this.syncRange(name, fd, st);
      if (!focused || fd.input.tagName === 'SELECT') setIf(fd.input, 'value', String(st[name]));
      if (fd.err && !fd.err.hidden && !focused) this.setError(name, null);
    }
    setIf(this.dSlider, 'max', String(sliderX(bound(this.table.d, 'max', st))));  // lp: d up to its own largest
    setIf(this.dSlider, 'value', String(sliderX(st.d)));
  }

  // Writes the field's range for state st into its min/max attributes and its hint.
  syncRange(name, fd, st) {
    const f = this.table[name];
    if (f.type !== 'int' && f.type !== 'number') return;
    const lo = bound(f, 'min', st), hi = bound(f, 'max', st);
    setIf(fd.input, 'min', String(lo));
    setIf(fd.input, 'max', String(hi));
    const range = f.type === 'int' ? `${lo} – ${hi}` : `${f.minOpen ? '(' : '['}${lo}, ${hi}${f.maxOpen ? ')' : ']'}`;
    setIf(fd.hint, 'textContent', `${fd.baseHint ? `${fd.baseHint} ` : ''}Range ${range}.`);
  }
}
