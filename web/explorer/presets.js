// attnx explorer: the presets menu's named states, all from the core's schema: the paper's setting
// (schema.presets.paper: its values for the explorer's fields, at the explorer's default L and d)
// and the explorer's own (schema.explorerPresets; those with dMin set d to the target's minimal d,
// found by the core's search when the preset is applied, never a number written in the page).
// A preset's state is written like a story step's (story.js: settings named as in links, on top
// of the table's current defaults). DOM-free.
import { parseField } from '../common/hashstate.js';
import { sceneState } from './story.js';
import { minDGrid, minDOptions, minDMessage } from './d-search.js';

// Settings given as link values ({ option: value }) parsed as a link's, in order (ranges see the
// settings before them); options the explorer does not have are left out.
function parsed(schema, table, values) {
  const state = {};
  for (const [option, value] of Object.entries(values)) {
    if (!schema.linkCompute.explorer.includes(option)) continue;
    const r = parseField(option, table[option], String(value), { ...sceneState(table), ...state });
    if (!r.error) state[option] = r.value;
  }
  return state;
}

function paperPreset(schema, table) {
  const state = parsed(schema, table, schema.presets.paper.values);
  return { name: 'paper', label: `Paper: random k = ${state.k}, L = ${table.L.def}`, state, dMin: false };
}

/** The menu's entries, in order: the paper's setting, then the explorer's own. */
export function presetList(schema, table) {
  const own = schema.explorerPresets.map((p) => ({ name: p.name, label: p.label, state: parsed(schema, table, p.values), dMin: p.dMin }));
  return [paperPreset(schema, table), ...own];
}

/**
 * Preset `name` as { patch (the table's defaults with its state on top, no story), dMin (d is
 * to be set to the minimal d of that state) }, or null when there is no such preset.
 */
export function presetPatch(schema, table, name) {
  const p = presetList(schema, table).find((x) => x.name === name);
  return p ? { patch: { ...sceneState(table, p.state), story: '', step: 1 }, dMin: p.dMin } : null;
}

/**
 * Preset `name` as a state patch ready to apply: with dMin, d is the minimal d of the preset's
 * state found on the pool (minD with the explorer's grid: d-search.js minDGrid); when the search
 * fails or finds none, d is the table's default and `note` says why. Resolves { patch, note }, or
 * null for an unknown preset. signal (optional) cancels the search (then it resolves null).
 */
export async function resolvePreset(pool, schema, table, name, { signal } = {}) {
  const p = presetPatch(schema, table, name);
  if (!p || !p.dMin) return p && { patch: p.patch, note: '' };
  const grid = minDGrid(schema, table, p.patch);
  try {
    const res = await pool.run('minD', minDOptions(schema, p.patch, null, grid), { signal });
    if (res.dMin !== null) return { patch: { ...p.patch, d: res.dMin }, note: '' };
    return { patch: p.patch, note: minDMessage(res, grid) };
  } catch (e) {
    if (e && e.name === 'AbortError') return null;
    return { patch: p.patch, note: `The minimal d of this preset could not be found: ${e && e.message ? e.message : e}` };
  }
}
