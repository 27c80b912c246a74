// attnx lab: downloads (CSV, JSON, SVG, PNG) and reading an imported file. The JSON and CSV texts
// are written and read by the core in a worker (pool.run('formatSweep' | 'parseSweep')), byte for
// byte as `attnx sweep` writes them; this file only moves text and images.

import { download } from '../common/download.js';

// The pages' one download (web/common/download.js), for the lab's other files.
export { download };

const NS = 'http://www.w3.org/2000/svg';

// A standalone copy of the plot `svg` with `caption` lines (wrapped to the width) added above it
// (the page shows them as HTML). Returns the new <svg> element (not in the document).
function standalone(svg, caption = []) {
  const clone = svg.cloneNode(true);
  clone.setAttribute('xmlns', NS);
  if (!caption.length) return clone;
  const w = Number(svg.getAttribute('width')), h = Number(svg.getAttribute('height'));
  caption = caption.flatMap((line, i) => wrap(line, Math.floor((w - 24) / (i === 0 ? 8.2 : 6.3))));
  const top = 12 + caption.length * 18;
  clone.setAttribute('height', String(h + top));
  clone.setAttribute('viewBox', `0 0 ${w} ${h + top}`);
  const bg = clone.querySelector('rect');
  const body = document.createElementNS(NS, 'g');
  body.setAttribute('transform', `translate(0 ${top})`);
  for (const n of [...clone.childNodes]) if (n !== bg && n.nodeName !== 'title' && n.nodeName !== 'desc') body.appendChild(n);
  if (bg) bg.setAttribute('height', String(h + top));
  clone.appendChild(body);
  caption.forEach((line, i) => {
    const t = document.createElementNS(NS, 'text');
    t.setAttribute('x', '12');
    t.setAttribute('y', String(20 + i * 18));
    if (i === 0) { t.setAttribute('font-weight', '600'); t.setAttribute('font-size', '14'); } else t.setAttribute('font-size', '11');
    t.textContent = line;
    clone.insertBefore(t, body);
  });
  return clone;
}

// Greedy word wrap of `line` to at most `n` characters a line (a longer word gets its own line).
// Returns the lines.
export function wrap(line, n) {
  const out = [];
  let cur = '';
  for (const word of line.split(' ')) {
    if (cur && (cur.length + 1 + word.length) > n) { out.push(cur); cur = word; } else cur = cur ? `${cur} ${word}` : word;
  }
  if (cur) out.push(cur);
  return out;
}

// The text of an .svg file of the plot (XML declaration, standalone copy with its caption).
function svgText(svg, caption = []) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(standalone(svg, caption))}\n`;
}

// Renders the plot (standalone, with caption) to a PNG blob at `scale` times its size (drawImage
// of the SVG onto a canvas). Resolves the blob; rejects when the browser cannot render or encode.
function svgToPng(svg, scale = 2, caption = []) {
  return new Promise((resolve, reject) => {
    const full = standalone(svg, caption);
    const w = Number(full.getAttribute('width')), h = Number(full.getAttribute('height'));
    const url = URL.createObjectURL(new Blob([svgText(svg, caption)], { type: 'image/svg+xml' }));
    const img = new Image();
    img.onload = () => {
      try {
        const c = document.createElement('canvas');
        c.width = Math.round(w * scale);
        c.height = Math.round(h * scale);
        const ctx = c.getContext('2d');
        ctx.drawImage(img, 0, 0, c.width, c.height);
        URL.revokeObjectURL(url);
        c.toBlob((b) => (b ? resolve(b) : reject(new Error('the browser could not encode the PNG'))), 'image/png');
      } catch (e) {
        URL.revokeObjectURL(url);
        reject(e);
      }
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('the browser could not render the plot as an image'));
    };
    img.src = url;
  });
}

// Downloads the plot as an .svg file named `name`.svg.
export function exportSvg(svg, name, caption = []) {
  download(new Blob([svgText(svg, caption)], { type: 'image/svg+xml' }), `${name}.svg`);
}

// Downloads the plot as a PNG (twice its size) named `name`.png. Rejects as svgToPng does.
export async function exportPng(svg, name, caption = []) {
  download(await svgToPng(svg, 2, caption), `${name}.png`);
}

// The file of a result as `attnx sweep --format json|csv` writes it: the core formats the record
// in a worker. format: 'json' | 'csv'; name: the file name stem. Resolves { name, type, text };
// rejects with the core's message.
export async function resultFile(pool, res, format, name) {
  const text = await pool.run('formatSweep', { record: res, format });
  return { name: `${name}.${format}`, type: format === 'json' ? 'application/json' : 'text/csv', text };
}

// Downloads resultFile(pool, res, format, name). Rejects as resultFile does.
export async function exportResult(pool, res, format, name) {
  const f = await resultFile(pool, res, format, name);
  download(new Blob([f.text], { type: f.type }), f.name);
}

// Reads a File made by `attnx sweep` (JSON or CSV) and has the core parse and check it in a
// worker (the page never blocks on a large file). A file larger than maxBytes is refused before
// it is read. Resolves the record { version, params, points, fits } with source 'import' and the
// file name; rejects with "<file name>: <the core's message>" (or the size refusal).
export async function importResult(pool, file, maxBytes = Infinity) {
  if (file.size > maxBytes) throw new Error(`${file.name}: the file has ${file.size} bytes; a result file may have at most ${maxBytes}`);
  let rec;
  try {
    rec = await pool.run('parseSweep', { text: await file.text() });
  } catch (e) {
    throw new Error(`${file.name}: ${e.message}`);
  }
  return { ...rec, source: 'import', fileName: file.name, complete: true };
}
