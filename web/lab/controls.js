// attnx lab: the sweep settings form. It owns no settings: render(state) shows the store's state,
// and a valid edit is committed (onCommit) for the store to take. Every field validates as you
// type against the state table built from the core's schema (the message names the field and its
// range); an invalid edit stays in its field, marked, and keeps Run disabled. Fields an option
// does not apply to (another family's parameters, another weights' option) are hidden.
import { el } from '../common/dom.js';
import { describeRange } from '../common/hashstate.js';
import { familyOf } from '../common/schema-table.js';
import { checkField, smallestL, sweepFamilies, computeFields, applies } from './settings.js';

// The page's wording: hints, and labels where the page words a field otherwise than the core's
// schema (the label a field has without one here); ranges come from the table.
const FIELD_TEXT = {
  Ls: { hint: 'ascending' },
  pattern: { hint: 'families that scale with L' },
  weights: { label: 'Weights on the support' },
  wMin: { label: 'w_min (random weights)', hint: 'uniform in [w_min, 1], then normalised' },
  decay: { label: 'decay (decaying weights)', hint: 'A_ij ∝ (1 + |i−j|)^−decay' },
  eps: { label: 'ε (ratio tolerance)', hint: 'condition (R)' },
  tau: { label: 'τ (zero ratio)', hint: 'condition (Z)' },
  delta: { label: 'δ (failure probability)', hint: 'the plot marks the (1−δ)-quantile' },
  trials: { label: 'Trials T per length' },
  step: { label: 'd step', hint: 'd is searched on step, 2·step, …' },
  dmax: { label: 'd_max', hint: 'larger d_min counts as not reached' },
  seed: { label: 'Master seed', hint: 'same seed, same numbers as attnx sweep' },
  L: { label: 'L of the frontier', hint: 'one length: the frontier\'s targets are the sweep\'s trials at this L' },
  scales: { label: 'Budgets Λ_max (opt)', hint: 'opt\'s minimal D is searched at each' },
  boxes: { label: 'Boxes U (lp)', hint: 'each gives one (Λ, d_min) point of lp' },
  budget: { label: 'Budget Λ_max (opt)', hint: 'no logit exceeds it' },
};

// Fieldsets of the form and the schema option groups they hold.
const FIELDSETS = [['Sweep', ['sweep', 'run']], ['Target pattern A', ['pattern']], ['Tolerances', ['tolerances']], ['How X is chosen', ['construction']], ['Search for d', ['search']], ['Dimensions against logit scale', ['frontier']]];

// The lab's one L is the frontier's length (the sweep has its grid Ls): it goes with the frontier.
const groupOf = (schema, name) => (name === 'L' ? 'frontier' : schema.options[name].group);

// While typing, an incomplete number ("0.", "1e", "") is not yet an error worth showing.
const incomplete = (raw) => /^\s*$|[.eE+-]$/.test(raw);

// The form of the lab's settings (see the top of this file).
export class Controls {
  // root: the <form>; schema: the core's schema(); table: the lab's state table; onCommit(name,
  // value): a valid edit; onValidity(valid): after every edit and render.
  constructor(root, { schema, table, onCommit, onValidity = () => {} }) {
    Object.assign(this, { root, schema, table, onCommit, onValidity });
    this.fields = new Map();   // name -> { wrap, input, msg, label, hint }
    this.drafts = new Map();   // name -> { raw, error, quiet }: edits the state does not hold
    this.state = null;
    this.build();
  }

  // Builds the fieldsets and their fields (schema option groups, in the links' option order).
  build() {
    const names = computeFields(this.schema);
    this.root.replaceChildren();
    for (const [legendText, groups] of FIELDSETS) {
      const fs = el('fieldset', {}, el('legend', { text: legendText }));
      for (const n of names) if (groups.includes(groupOf(this.schema, n))) fs.append(this.field(n));
      this.root.append(fs);
    }
  }

  // One labelled field: a <select> for choices, a text input otherwise, with hint and message.
  field(name) {
    const f = this.table[name];
    const id = `f-${name}`;
    let input;
    if (f.type === 'enum') {
      const labels = name === 'pattern' ? new Map(sweepFamilies(this.schema).map((x) => [x.name, x.label])) : new Map();
      input = el('select', { id, name }, f.values.map((v) => el('option', { value: v, text: labels.get(v) || v })));
    } else {
      const mode = f.type === 'int' ? 'numeric' : f.type === 'number' ? 'decimal' : null;
      input = el('input', { id, name, type: 'text', inputmode: mode, spellcheck: 'false', autocomplete: 'off' });
      input.addEventListener('input', () => this.edit(name, input.value, true));
    }
    input.addEventListener('change', () => this.edit(name, input.value));
    const label = el('label', { for: id, text: FIELD_TEXT[name]?.label || f.label || name });
    const hint = el('span', { class: 'hint', id: `${id}-hint` });
    const msg = el('span', { class: 'field-msg', id: `${id}-msg`, role: 'alert' });
    input.setAttribute('aria-describedby', `${id}-hint ${id}-msg`);
    const wrap = el('div', { class: 'field', 'data-name': name }, label, input, hint, msg);
    this.fields.set(name, { wrap, input, msg, label, hint });
    return wrap;
  }

  // Label and hint of a field for state st (family parameters: the chosen family's wording and
  // range for the grid's smallest L).
  describe(name, st) {
    const fld = this.fields.get(name);
    const p = familyOf(this.schema, st.pattern).params.find((q) => q.name === name);
    if (p) fld.label.textContent = `${name} (${p.label})`;
    const range = this.table[name].type === 'enum' ? '' : describeRange(this.table[name], st);
    const L0 = smallestL(st);
    const extra = p && Number.isFinite(L0) ? ` (smallest L is ${L0})` : '';
    fld.hint.textContent = [FIELD_TEXT[name]?.hint, range && `${range}${extra}`].filter(Boolean).join('; ');
  }

  // Shows state st (the store's): values, visibility, hints; re-checks every shown field against
  // the whole state (a grid change can put k out of range). Edits kept in their fields that st
  // now allows are committed.
  render(st) {
    this.state = { ...st };
    const commits = [];
    for (const [name, fld] of this.fields) {
      fld.wrap.hidden = !applies(this.schema, name, st);
      this.describe(name, st);
      const draft = this.drafts.get(name);
      if (!draft && fld.input !== fld.input.getRootNode().activeElement) fld.input.value = String(st[name] ?? '');
      if (fld.wrap.hidden) continue;
      const r = checkField(this.table, st, name, draft ? draft.raw : String(st[name]));
      if (r.error) this.showError(name, draft ? draft.raw : String(st[name]), r.error, draft?.quiet);
      else if (draft) commits.push([name, r.value]);
      else this.clearError(name);
    }
    this.onValidity(this.valid());
    for (const [name, value] of commits) {
      this.clearError(name);
      this.onCommit(name, value);
    }
  }

  // Keeps the invalid text `raw` of field `name` as a draft, marked invalid; shows `error` unless quiet.
  showError(name, raw, error, quiet = false) {
    const fld = this.fields.get(name);
    this.drafts.set(name, { raw, error, quiet });
    fld.input.setAttribute('aria-invalid', 'true');
    fld.msg.textContent = quiet ? '' : error;
  }

  // Drops the draft of field `name` and its mark and message.
  clearError(name) {
    const fld = this.fields.get(name);
    this.drafts.delete(name);
    fld.input.removeAttribute('aria-invalid');
    fld.msg.textContent = '';
  }

  // An edit of field `name` to raw text (typing: from an input event). Valid: committed.
  // Invalid: kept in the field with its message (not shown yet for an incomplete number).
  edit(name, raw, typing = false) {
    const r = checkField(this.table, this.state, name, raw);
    if (r.error) {
      this.showError(name, raw, r.error, typing && incomplete(raw));
      this.onValidity(false);
      return;
    }
    this.clearError(name);
    this.onCommit(name, r.value);
    this.onValidity(this.valid());
  }

  // True when no shown field holds an invalid edit.
  valid() {
    return this.firstError() === null;
  }

  // The first shown field with an invalid edit: { name, message }, or null.
  firstError() {
    for (const [name, d] of this.drafts) if (!this.fields.get(name).wrap.hidden) return { name, message: d.error };
    return null;
  }

  // Moves the keyboard focus to field `name` (when it exists).
  focusField(name) {
    this.fields.get(name)?.input.focus();
  }

  // Disables or enables every field (while a sweep runs).
  setDisabled(disabled) {
    for (const { input } of this.fields.values()) input.disabled = disabled;
  }

  // Forgets every invalid edit (before a preset or defaults replace the state).
  reset() {
    for (const name of [...this.drafts.keys()]) this.clearError(name);
  }
}
