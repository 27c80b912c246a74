// attnx explorer: the presets menu's named states (data). Each preset's state is written like a
// story step's (story.js: settings named as in links, on top of the table's current defaults);
// the paper's setting is the core's paper preset (schema.presets.paper), the others' numbers were
// computed with the core (seed 1).
import { parseField } from '../common/hashstate.js';
import { sceneState } from './story.js';

// The presets that are page data: { name, label (shown), state (settings as in a link) }.
const PAGE_PRESETS = [
  // The README's embed example: 5 nonzeros per row, succeeds at d = 2560.
  { name: 'window', label: 'Sliding window (L = 128, w = 2)', state: { pattern: 'window', L: 128, w: 2, d: 2560 } },
  // One global token (column 0 has all 64 rows): outside the class; succeeds at its minimal d, 1856.
  { name: 'bigbird', label: 'BigBird (outside the class)', state: { pattern: 'bigbird', L: 64, w: 1, globals: 1, randoms: 1, d: 1856 } },
];

// The core's paper preset as an explorer state: its values for the explorer's fields (parsed as
// a link's), at the explorer's default L = 256 and d = 1024 (succeeds; minimal d on the 16-grid 944).
function paperPreset(schema, table) {
  const state = {};
  for (const [option, value] of Object.entries(schema.presets.paper.values)) {
    if (!schema.linkCompute.explorer.includes(option)) continue;  // the explorer's options only
    const r = parseField(option, table[option], String(value), state);
    if (!r.error) state[option] = r.value;
  }
  return { name: 'paper', label: `Paper: random k = ${state.k}, L = ${table.L.def}`, state };
}

/** The menu's entries, in order: the paper's setting, then the page's presets. */
export function presetList(schema, table) {
  return [paperPreset(schema, table), ...PAGE_PRESETS];
}

/**
 * The state patch of preset `name` (the table's defaults with its state on top, no story), or
 * null when there is no such preset.
 */
export function presetPatch(schema, table, name) {
  const p = presetList(schema, table).find((x) => x.name === name);
  return p ? { ...sceneState(table, p.state), story: '', step: 1 } : null;
}
