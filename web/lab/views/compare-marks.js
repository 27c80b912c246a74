// attnx lab: how the comparison's constructions are told apart in its plots (plot-compare.js,
// plot-compare-floors.js, plot-dim-bits.js): a colour (the theme's `constructions`, svg.js) and a
// marker shape, both by a construction's place in the comparison's order (compare.js comparedOf:
// the schema's), so a construction the core adds is drawn without a web change.

// Marker shapes (told apart without colour too), as path data around (x, y): circle, square,
// diamond, cross; the construction at place i of the comparison's order gets SHAPES[i] (markOf).
const SHAPES = [
  (x, y, r) => `M${x - r},${y}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`,
  (x, y, r) => `M${x - r * 0.85},${y - r * 0.85}h${1.7 * r}v${1.7 * r}h${-1.7 * r}Z`,
  (x, y, r) => `M${x},${y - r * 1.1}L${x + r * 1.1},${y}L${x},${y + r * 1.1}L${x - r * 1.1},${y}Z`,
  (x, y, r) => `M${x - r},${y - r * 0.35}h${r * 0.65}v${-r * 0.65}h${r * 0.7}v${r * 0.65}h${r * 0.65}v${r * 0.7}h${-r * 0.65}v${r * 0.65}h${-r * 0.7}v${-r * 0.65}h${-r * 0.65}Z`,
];

/** The marker shape and the colour of the construction at place i of the comparison's order. */
export const markOf = (i) => SHAPES[i % SHAPES.length];
export const inkOf = (theme, i) => theme.constructions[i % theme.constructions.length];

