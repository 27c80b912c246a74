// Colour scales under the common colour-vision deficiencies (issue 28.4). Every palette is passed
// through the full-severity simulations of Machado, Oliveira and Fernandes (2009) for protanopia,
// deuteranopia and tritanopia (applied in linear sRGB), then measured in CIELAB (D65):
// - viridis (A, M, X): lightness L* rises along the scale for every vision, so order is readable
//   without hue, and neighbouring 1/16 steps stay apart (ΔE76 >= 3);
// - the diverging map (ratio error): lightness falls away from the neutral middle on both sides,
//   and the two sides stay apart at equal distance from it (ΔE76 >= 15 from a quarter of the way).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VIRIDIS } from '../../web/common/viridis.js';
import { DIVERGING } from '../../web/common/diverging.js';

const MACHADO = {
  normal: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
};

const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);

// CIELAB of an sRGB byte triple seen with vision m (linear sRGB -> simulated -> XYZ -> Lab).
function lab(rgb, m) {
  const lin = rgb.map((c) => toLinear(c / 255));
  const s = m.map((row) => Math.min(1, Math.max(0, row[0] * lin[0] + row[1] * lin[1] + row[2] * lin[2])));
  const X = 0.4124 * s[0] + 0.3576 * s[1] + 0.1805 * s[2];
  const Y = 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2];
  const Z = 0.0193 * s[0] + 0.1192 * s[1] + 0.9505 * s[2];
  const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  const fx = f(X / 0.95047), fy = f(Y), fz = f(Z / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}
const dE = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const entry = (lut, i) => [lut[3 * i], lut[3 * i + 1], lut[3 * i + 2]];

// Hue angle of a Lab colour, in degrees.
const hue = (c) => ((Math.atan2(c[2], c[1]) * 180) / Math.PI + 360) % 360;

test('the simulation is the published one: protanopia and deuteranopia give red and green one hue, tritanopia does not', () => {
  const red = [255, 0, 0], green = [0, 255, 0];
  const apart = (m) => Math.abs(hue(lab(red, m)) - hue(lab(green, m)));
  assert.ok(apart(MACHADO.normal) > 60, 'normal vision: two hues');
  assert.ok(apart(MACHADO.protanopia) < 10, 'protanopia: red and green are one hue (yellow)');
  assert.ok(apart(MACHADO.deuteranopia) < 10, 'deuteranopia: red and green are one hue (yellow)');
  assert.ok(apart(MACHADO.tritanopia) > 60, 'tritanopia: red and green stay two hues');
  // Greys are left as they are by every simulation (each row of a matrix sums to 1).
  for (const m of Object.values(MACHADO)) assert.ok(dE(lab([128, 128, 128], m), lab([128, 128, 128], MACHADO.normal)) < 0.5);
});

for (const [vision, m] of Object.entries(MACHADO)) {
  test(`viridis under ${vision}: lightness rises along the scale and 1/16 steps stay apart`, () => {
    let prev = null;
    for (let i = 0; i < 256; i += 16) {
      const c = lab(entry(VIRIDIS, Math.min(255, i)), m);
      if (prev) {
        assert.ok(c[0] > prev[0], `L* rises at entry ${i} (${prev[0].toFixed(1)} -> ${c[0].toFixed(1)})`);
        assert.ok(dE(c, prev) >= 3, `entries ${i - 16} and ${i} are ${dE(c, prev).toFixed(1)} apart`);
      }
      prev = c;
    }
    assert.ok(lab(entry(VIRIDIS, 255), m)[0] - lab(entry(VIRIDIS, 0), m)[0] > 50, 'a wide lightness range');
  });

  test(`diverging map under ${vision}: lightness falls away from the middle and the two sides stay apart`, () => {
    const mid = lab(entry(DIVERGING, 128), m);
    for (let j = 8; j <= 127; j += 8) {
      const lo = lab(entry(DIVERGING, 128 - j), m), hi = lab(entry(DIVERGING, 128 + j), m);
      const loIn = lab(entry(DIVERGING, 128 - j + 8), m), hiIn = lab(entry(DIVERGING, 128 + j - 8), m);
      assert.ok(lo[0] < loIn[0] + 0.5 && hi[0] < hiIn[0] + 0.5, `L* falls away from the middle at ±${j}`);
      if (j >= 32) assert.ok(dE(lo, hi) >= 15, `±${j}: the sides are ${dE(lo, hi).toFixed(1)} apart`);
    }
    assert.ok(mid[0] > 85, 'the middle is light');
  });
}
