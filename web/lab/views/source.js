// attnx lab: the texts that say where a result comes from and for which settings (DOM-free): the
// line above the table and the caption lines of an exported plot.

// Parameter names of the family `name` in schema.families ([] for an unknown family).
function familyParamNames(schema, name) {
  const f = schema.families.find((x) => x.name === name);
  return f ? f.params.map((p) => p.name) : [];
}

// The family and its recorded parameters: "random, k = 2" ('pattern not recorded' without one).
function familyText(schema, p) {
  if (!p.pattern) return 'pattern not recorded';
  const params = familyParamNames(schema, p.pattern).filter((k) => p[k] !== undefined).map((k) => `${k} = ${p[k]}`);
  return [p.pattern, ...params].join(', ');
}

// One line on the result: computed here or imported (file name, version), complete or not, its
// main settings and, when changed, that the settings are no longer the result's. res: a result or
// null; runState: the page's run state; schema: the core's (family parameters). Returns '' for no
// result.
export function describeSource(res, runState, schema, changed = false) {
  if (!res) return '';
  const p = res.params;
  const fam = familyText(schema, p);
  const tol = p.eps !== undefined ? `, ε = ${p.eps}, τ = ${p.tau}` : '';
  const imported = res.source === 'import';
  const head = imported ? `Imported ${res.fileName || 'file'}${res.version ? ` (attnx ${res.version})` : ''}` : 'Computed in this browser';
  const state = imported || res.complete ? '' : runState === 'running' ? ' — running' : ' — partial (cancelled)';
  const since = changed ? ' The settings have changed since: press Run sweep to measure them.' : '';
  return `${head}${state}: ${fam}${tol}, δ = ${p.delta ?? 'unknown'}, T = ${p.trials ?? '?'}, seed ${p.seed ?? '?'}.${since}`;
}

// Lines above an exported plot: what it shows ('d-vs-L' | 'success-vs-d') and, with a result,
// for which settings (the family's parameters from the schema). Returns [head] or [head, settings].
export function caption(kind, res, schema) {
  const head = kind === 'd-vs-L' ? 'Minimal hidden size d versus sequence length L' : 'Success probability versus hidden size d';
  if (!res) return [head];
  const p = res.params;
  const fam = familyText(schema, p);
  const tol = [p.weights && `${p.weights} weights`, p.eps !== undefined && `ε = ${p.eps}`, p.tau !== undefined && `τ = ${p.tau}`,
    p.delta !== null && p.delta !== undefined && `δ = ${p.delta}`, p.trials && `T = ${p.trials}`, p.step && `step ${p.step}`,
    p.d_max && `d_max ${p.d_max}`, p.seed !== undefined && `seed ${p.seed}`].filter(Boolean).join(', ');
  return [head, `attnx sweep: ${fam}; ${tol}`];
}

// File name stem of a result's downloads: attnx-sweep-<pattern>-L<first>-<last>.
export function baseName(res) {
  const p = (res && res.params) || {};
  const Ls = p.Ls && p.Ls.length ? `-L${p.Ls[0]}-${p.Ls[p.Ls.length - 1]}` : '';
  return `attnx-sweep-${p.pattern || 'result'}${Ls}`;
}

// The hint under the preset button: every value the preset sets ("Paper preset: Ls = 64,128,...,
// pattern = random, k = 2, ..."). preset: an entry of schema.presets.
export function presetHint(preset) {
  const values = Object.entries(preset.values).map(([k, v]) => `${k} = ${v}`).join(', ');
  return `${preset.label}: ${values}.`;
}
