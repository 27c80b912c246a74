// attnx web: the viridis palette as a 256-entry RGB lookup table (colour-blind safe, perceptually
// uniform, monotone in lightness). Anchors are every 16th entry of the matplotlib viridis map
// (van der Walt, Smith, Firing; CC0), linearly interpolated, which is within 1/255 of the original.
const ANCHORS = [
  [0.267004, 0.004874, 0.329415], [0.282327, 0.094955, 0.417331], [0.278826, 0.175490, 0.483397],
  [0.258965, 0.251537, 0.524736], [0.229739, 0.322361, 0.545706], [0.199430, 0.387607, 0.554642],
  [0.172719, 0.448791, 0.557885], [0.149039, 0.508051, 0.557250], [0.127568, 0.566949, 0.550556],
  [0.120638, 0.625828, 0.533488], [0.157851, 0.683765, 0.501686], [0.246070, 0.738910, 0.452024],
  [0.369214, 0.788888, 0.382914], [0.515992, 0.831158, 0.294279], [0.678489, 0.863742, 0.189503],
  [0.845561, 0.887322, 0.099702], [0.993248, 0.906157, 0.143936],
];
const AT = [0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 255];

function build() {
  const lut = new Uint8Array(256 * 3);
  for (let s = 0; s < AT.length - 1; s++) {
    const a = AT[s], b = AT[s + 1];
    for (let i = a; i <= b; i++) {
      const t = (i - a) / (b - a);
      for (let c = 0; c < 3; c++) {
        const v = ANCHORS[s][c] + t * (ANCHORS[s + 1][c] - ANCHORS[s][c]);
        lut[i * 3 + c] = Math.round(v * 255);
      }
    }
  }
  return lut;
}

// VIRIDIS[3*i .. 3*i+2] = r, g, b of entry i (0 = dark purple = low, 255 = yellow = high).
export const VIRIDIS = build();
