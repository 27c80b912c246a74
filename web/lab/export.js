// attnx lab: downloads (CSV, JSON, SVG, PNG) and reading an imported file.
import { toCsv, toJson, parseImport } from './io.js';

export function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

const NS = 'http://www.w3.org/2000/svg';

// A standalone copy of a plot: with `caption` lines added above it (the page shows them as HTML).
export function standalone(svg, caption = []) {
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

// Greedy word wrap to at most `n` characters a line.
export function wrap(line, n) {
  const out = [];
  let cur = '';
  for (const word of line.split(' ')) {
    if (cur && (cur.length + 1 + word.length) > n) { out.push(cur); cur = word; } else cur = cur ? `${cur} ${word}` : word;
  }
  if (cur) out.push(cur);
  return out;
}

export function svgText(svg, caption = []) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(standalone(svg, caption))}\n`;
}

// Renders an SVG element to a PNG blob (drawImage of the SVG blob onto a canvas).
export function svgToPng(svg, scale = 2, caption = []) {
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

export function baseName(res) {
  const p = res.params || {};
  const Ls = p.Ls && p.Ls.length ? `-L${p.Ls[0]}-${p.Ls[p.Ls.length - 1]}` : '';
  return `attnx-sweep-${p.pattern || 'result'}${Ls}`;
}

export function exportJson(res) {
  download(new Blob([toJson(res)], { type: 'application/json' }), `${baseName(res)}.json`);
}
export function exportCsv(res) {
  download(new Blob([toCsv(res)], { type: 'text/csv' }), `${baseName(res)}.csv`);
}
export function exportSvg(svg, name, caption = []) {
  download(new Blob([svgText(svg, caption)], { type: 'image/svg+xml' }), `${name}.svg`);
}
export async function exportPng(svg, name, caption = []) {
  download(await svgToPng(svg, 2, caption), `${name}.png`);
}

// Reads and validates a File. Resolves the result or rejects with a message naming the problem.
export async function importFile(file) {
  if (file.size > 32 * 1024 * 1024) throw new Error(`${file.name}: the file is too large (at most 32 MiB)`);
  const text = await file.text();
  try {
    return parseImport(text);
  } catch (e) {
    throw new Error(`${file.name}: ${e.message}`);
  }
}
