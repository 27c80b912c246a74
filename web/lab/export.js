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

export function svgText(svg) {
  const clone = svg.cloneNode(true);
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}\n`;
}

// Renders an SVG element to a PNG blob (drawImage of the SVG blob onto a canvas).
export function svgToPng(svg, scale = 2) {
  return new Promise((resolve, reject) => {
    const w = Number(svg.getAttribute('width')), h = Number(svg.getAttribute('height'));
    const url = URL.createObjectURL(new Blob([svgText(svg)], { type: 'image/svg+xml' }));
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
export function exportSvg(svg, name) {
  download(new Blob([svgText(svg)], { type: 'image/svg+xml' }), `${name}.svg`);
}
export async function exportPng(svg, name) {
  download(await svgToPng(svg, 2), `${name}.png`);
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
