// attnx explorer: the presets menu's named states (data). Each preset's state is written like a
// story step's (story.js: settings named as in links, on top of the table's current defaults);
// the numbers in the labels and comments were computed with the core (seed 1).
import { sceneState } from './story.js';

// The menu's entries, in order: { name, label (shown), state (settings as in a link) }.
export const PRESETS = [
  // SPEC §5's setting at one length; succeeds at d = 1024 (minimal d on the 16-grid: 944).
  { name: 'paper', label: 'Paper: random k = 2, L = 256', state: { pattern: 'random', L: 256, k: 2, weights: 'uniform', eps: 1, tau: 0.1, d: 1024 } },
  // The README's embed example: 5 nonzeros per row, succeeds at d = 2560.
  { name: 'window', label: 'Sliding window (L = 128, w = 2)', state: { pattern: 'window', L: 128, w: 2, d: 2560 } },
  // One global token (column 0 has all 64 rows): outside the class; succeeds at its minimal d, 1856.
  { name: 'bigbird', label: 'BigBird (outside the class)', state: { pattern: 'bigbird', L: 64, w: 1, globals: 1, randoms: 1, d: 1856 } },
];

// The state patch of preset `name` (the table's defaults with its state on top, no story), or
// null when there is no such preset.
export function presetPatch(table, name) {
  const p = PRESETS.find((x) => x.name === name);
  return p ? { ...sceneState(table, p.state), story: '', step: 1 } : null;
}
