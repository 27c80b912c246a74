// attnx scripts: real pointer drags of the explorer's logarithmic d slider (#f-d-slider,
// d = round(2^(value / DSLIDER))) for the benchmark and the frame strip.
import { DSLIDER } from '../web/explorer/controls.js';  // the page's own: d = round(2^(value / DSLIDER))

export { DSLIDER };
export const THUMB_PX = 16;   // Chromium's range thumb width (value -> x)

// The slider's geometry: { x0, width, y, min, max } (x0, width: the thumb centre's travel).
export async function sliderBox(page) {
  const s = page.locator('#f-d-slider');
  await s.scrollIntoViewIfNeeded();
  const box = await s.boundingBox();
  const [min, max] = await s.evaluate((el) => [Number(el.min || 0), Number(el.max || 100)]);
  return { x0: box.x + THUMB_PX / 2, width: box.width - THUMB_PX, y: box.y + box.height / 2, min, max };
}

// The x of the thumb centre at d.
export function thumbX(g, d) {
  const v = Math.min(g.max, Math.max(g.min, DSLIDER * Math.log2(d)));
  return g.x0 + g.width * (v - g.min) / (g.max - g.min);
}

// Moves the (pressed) mouse from x0 to x1 at row y in stepPx steps, one every frameMs.
export async function dragX(page, x0, x1, y, { stepPx = 2, frameMs = 16 } = {}) {
  const n = Math.max(1, Math.round(Math.abs(x1 - x0) / stepPx));
  for (let i = 1; i <= n; i++) {
    await page.mouse.move(x0 + (x1 - x0) * i / n, y);
    await page.waitForTimeout(frameMs);
  }
}
