// attnx web: a heatmap figure on <canvas> at data resolution (CSS scales it, pixelated), with
// pointer -> cell mapping. Images come as { w, h, rgba } (see raster.js).
export class Heatmap {
  // canvas: HTMLCanvasElement; rows/cols: data size that the image covers (for pointer mapping).
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.rows = 0;
    this.cols = 0;
    this.region = { i0: 0, i1: 0, j0: 0, j1: 0 };
  }

  // Puts the RGBA image { w, h, rgba } on the canvas (resized to w x h); rows x cols is the data
  // size, region (optional) the part of it the image shows, { i0, i1, j0, j1 } (rows i0..i1-1,
  // columns j0..j1-1; default all): for cellAt.
  draw(img, rows, cols, region = null) {
    this.rows = rows;
    this.cols = cols;
    this.region = region || { i0: 0, i1: rows, j0: 0, j1: cols };
    if (this.canvas.width !== img.w || this.canvas.height !== img.h) {
      this.canvas.width = img.w;
      this.canvas.height = img.h;
    }
    const data = img.rgba instanceof Uint8ClampedArray ? img.rgba : new Uint8ClampedArray(img.rgba.buffer);
    this.ctx.putImageData(new ImageData(data, img.w, img.h), 0, 0);
  }

  // Blanks the canvas.
  clear() {
    this.ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
  }

  // Client coordinates -> { i, j } data cell (inside the region shown), or null when outside.
  cellAt(clientX, clientY) {
    const r = this.canvas.getBoundingClientRect();
    if (!this.rows || r.width <= 0 || r.height <= 0) return null;
    const x = (clientX - r.left) / r.width, y = (clientY - r.top) / r.height;
    if (x < 0 || y < 0 || x >= 1 || y >= 1) return null;
    const g = this.region;
    return { i: g.i0 + Math.floor(y * (g.i1 - g.i0)), j: g.j0 + Math.floor(x * (g.j1 - g.j0)) };
  }
}

// Draws a horizontal colour bar for a LUT onto a canvas (1 px high, CSS stretches it).
// `map` (optional) takes the bar position x in [0, 1] to the palette position.
export function drawLegendBar(canvas, lut, from = 0, to = 1, map = null) {
  canvas.width = 256;
  canvas.height = 1;
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(256, 1);
  for (let x = 0; x < 256; x++) {
    const t = map ? map(x / 255) : from + ((to - from) * x) / 255;
    const e = Math.round(Math.max(0, Math.min(1, t)) * 255) * 3;
    img.data[x * 4] = lut[e];
    img.data[x * 4 + 1] = lut[e + 1];
    img.data[x * 4 + 2] = lut[e + 2];
    img.data[x * 4 + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
}
