// attnx web: a colour-blind-safe diverging palette (purple - light grey - orange, after
// ColorBrewer PuOr) as a 256-entry RGB lookup table. Entry 128 is the neutral middle.
const ANCHORS = [
  [45, 0, 75], [84, 39, 136], [128, 115, 172], [178, 171, 210], [216, 218, 235],
  [232, 232, 232],
  [254, 224, 182], [253, 184, 99], [224, 130, 20], [179, 88, 6], [127, 59, 8],
];

function build() {
  const lut = new Uint8Array(256 * 3);
  const n = ANCHORS.length - 1;
  for (let i = 0; i < 256; i++) {
    const x = (i / 255) * n;
    const s = Math.min(n - 1, Math.floor(x));
    const t = x - s;
    for (let c = 0; c < 3; c++) {
      lut[i * 3 + c] = Math.round(ANCHORS[s][c] + t * (ANCHORS[s + 1][c] - ANCHORS[s][c]));
    }
  }
  return lut;
}

// DIVERGING[3*i .. 3*i+2]: i = 0 strongly negative (purple), 128 zero, 255 strongly positive (orange).
export const DIVERGING = build();
