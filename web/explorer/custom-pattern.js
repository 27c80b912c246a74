// attnx explorer: an editable custom target pattern (raw nonnegative weights; the API renormalises
// each row to sum 1) and its compact URL encoding.
//
// Link encoding (two hash fields, only URL-safe characters):
//   cp: rows joined by "_"; a row lists its columns as signed base-36 offsets (j - i) joined by
//       "."; a row followed by "*n" (n base 36) stands for n identical consecutive rows.
//   cw: the weights in the same entry order joined by "_" (omitted when every weight is 1).
export class CustomPattern {
  // An empty L x L pattern. Its rows (Map column -> raw weight > 0 per row) are made on first use;
  // a pattern made from sorted triplets keeps them as typed arrays until then (an imported pattern
  // of 200,000 entries is counted, copied and sent to the core without building 200,000 Map
  // entries on the page's main thread).
  constructor(L) {
    this.L = L;
    this._rows = null;
    this._src = null;  // { rows, cols, vals }: sorted by (i, j), weights > 0, never mutated
  }

  // The rows as Maps (built from the sorted triplets on first use; callers may then edit them).
  get rows() {
    if (!this._rows) {
      this._rows = Array.from({ length: this.L }, () => new Map());
      const s = this._src;
      if (s) for (let t = 0; t < s.vals.length; t++) this._rows[s.rows[t]].set(s.cols[t], s.vals[t]);
      this._src = null;
    }
    return this._rows;
  }

  // The diagonal pattern of size L.
  static identity(L) {
    const p = new CustomPattern(L);
    for (let i = 0; i < L; i++) p.rows[i].set(i, 1);
    return p;
  }

  // The target shown (current: { L, A: { rows, cols, vals } } of the controller, or null) as a
  // pattern of size L, weights rounded to 4 significant digits relative to the row maximum (links
  // stay short and exact); the diagonal when there is none of that size.
  static fromTarget(current, L) {
    if (!current || current.L !== L) return CustomPattern.identity(L);
    const { rows, cols, vals } = current.A;
    const rowMax = new Float64Array(L);
    for (let t = 0; t < vals.length; t++) rowMax[rows[t]] = Math.max(rowMax[rows[t]], vals[t]);
    const w = Float64Array.from(vals, (v, t) => Number((v / rowMax[rows[t]]).toPrecision(4)));
    return CustomPattern.fromTriplets(L, rows, cols, w);
  }

  // A pattern from triplets (entries with weight <= 0 are left out; a repeated cell keeps its
  // last weight). Triplets sorted by (i, j), as the core returns them, are kept as they are.
  static fromTriplets(L, rows, cols, vals) {
    const p = new CustomPattern(L);
    let n = 0, sorted = true, pi = -1, pj = -1;
    for (let t = 0; t < vals.length; t++) {
      if (!(vals[t] > 0)) continue;
      if (rows[t] < pi || (rows[t] === pi && cols[t] <= pj)) sorted = false;
      pi = rows[t];
      pj = cols[t];
      n++;
    }
    if (!sorted) {
      for (let t = 0; t < vals.length; t++) if (vals[t] > 0) p.rows[rows[t]].set(cols[t], vals[t]);
      return p;
    }
    const src = { rows: new Int32Array(n), cols: new Int32Array(n), vals: new Float64Array(n) };
    for (let t = 0, k = 0; t < vals.length; t++) {
      if (!(vals[t] > 0)) continue;
      src.rows[k] = rows[t];
      src.cols[k] = cols[t];
      src.vals[k++] = vals[t];
    }
    p._src = src;
    return p;
  }

  // An independent copy.
  clone() {
    const p = new CustomPattern(this.L);
    if (this._src) p._src = this._src;
    else p._rows = this._rows ? this._rows.map((r) => new Map(r)) : null;
    return p;
  }

  // Number of nonzeros.
  get nnz() {
    if (this._src) return this._src.vals.length;
    let n = 0;
    for (const r of this.rows) n += r.size;
    return n;
  }

  // True when cell (i, j) is a nonzero.
  has(i, j) {
    return this.rows[i].has(j);
  }

  // Toggles one cell. Returns an error message (and changes nothing) if a row would be empty.
  set(i, j, on) {
    const r = this.rows[i];
    if (on) {
      if (!r.has(j)) r.set(j, 1);
      return null;
    }
    if (!r.has(j)) return null;
    if (r.size === 1) return `row ${i} must keep at least one nonzero (every row of A sums to 1)`;
    r.delete(j);
    return null;
  }

  // New pattern of size L: entries outside are dropped, empty rows get their diagonal.
  resized(L) {
    const p = new CustomPattern(L);
    for (let i = 0; i < L; i++) {
      if (i < this.L) for (const [j, w] of this.rows[i]) if (j < L) p.rows[i].set(j, w);
      if (p.rows[i].size === 0) p.rows[i].set(i, 1);
    }
    return p;
  }

  // Sorted triplets for the API (fresh arrays the caller may transfer).
  toTriplets() {
    const s = this._src;
    if (s) return { rows: s.rows.slice(), cols: s.cols.slice(), vals: s.vals.slice() };
    const n = this.nnz;
    const rows = new Int32Array(n), cols = new Int32Array(n), vals = new Float64Array(n);
    let t = 0;
    this.rows.forEach((r, i) => {
      for (const j of [...r.keys()].sort((a, b) => a - b)) {
        rows[t] = i;
        cols[t] = j;
        vals[t] = r.get(j);
        t++;
      }
    });
    return { rows, cols, vals };
  }

  // The link fields { cp, cw } (see the top of this file).
  encode() {
    const parts = [];
    const weights = [];
    let allOne = true;
    this.rows.forEach((r, i) => {
      const js = [...r.keys()].sort((a, b) => a - b);
      parts.push(js.map((j) => (j - i).toString(36)).join('.'));
      for (const j of js) {
        const w = r.get(j);
        if (w !== 1) allOne = false;
        weights.push(String(w));
      }
    });
    const runs = [];
    for (let a = 0; a < parts.length;) {
      let b = a + 1;
      while (b < parts.length && parts[b] === parts[a]) b++;
      runs.push(b - a > 1 ? `${parts[a]}*${(b - a).toString(36)}` : parts[a]);
      a = b;
    }
    return { cp: runs.join('_'), cw: allOne ? '' : weights.join('_') };
  }

  // The pattern a link's or an element's cp and cw fields give: { pattern } (the identity when
  // cp is empty and cw too: no custom pattern drawn yet), or { error, pattern: the identity }
  // naming the field and the problem (cw without cp is refused, never silently dropped). real: the
  // core's real-number grammar (schema-table.js numberGrammar(schema).number) the weights follow.
  static fromFields(L, cp, cw, maxNnz, real) {
    if (!cp && cw) return { error: 'cw (custom weights) is given without cp (the custom pattern); cw needs the nonzeros of cp', pattern: CustomPattern.identity(L) };
    const r = cp ? CustomPattern.decode(L, cp, cw, maxNnz, real) : { pattern: CustomPattern.identity(L) };
    return r.error ? { error: r.error, pattern: CustomPattern.identity(L) } : r;
  }

  // Returns { pattern } or { error } (the error names the field and the problem). The weights of
  // cw are read by `real` (a RegExp of the core's number grammar); without it cw is refused.
  static decode(L, cp, cw, maxNnz = Infinity, real = null) {
    const err = (m) => ({ error: `cp (custom pattern): ${m}` });
    const rowsTxt = [];
    for (const run of cp.split('_')) {
      const m = /^([-0-9a-z.]*?)(?:\*([0-9a-z]+))?$/.exec(run);
      if (!m) return err(`cannot read "${run.slice(0, 30)}"`);
      const n = m[2] ? parseInt(m[2], 36) : 1;
      if (!(n >= 1) || rowsTxt.length + n > L) return err(`has more than L = ${L} rows`);
      for (let t = 0; t < n; t++) rowsTxt.push(m[1]);
    }
    if (rowsTxt.length !== L) return err(`has ${rowsTxt.length} rows but L = ${L}`);
    const p = new CustomPattern(L);
    let nnz = 0;
    for (let i = 0; i < L; i++) {
      if (rowsTxt[i] === '') return err(`row ${i} is empty; every row needs at least one nonzero`);
      for (const tok of rowsTxt[i].split('.')) {
        if (!/^-?[0-9a-z]+$/.test(tok)) return err(`row ${i}: cannot read column "${tok.slice(0, 20)}"`);
        const j = i + parseInt(tok, 36);
        if (!(j >= 0 && j < L)) return err(`row ${i}: column ${j} is outside 0..${L - 1}`);
        if (p.rows[i].has(j)) return err(`row ${i}: column ${j} appears twice`);
        p.rows[i].set(j, 1);
        if (++nnz > maxNnz) return err(`has more than ${maxNnz} nonzeros (the link limit)`);
      }
    }
    if (cw) {
      if (!real) return { error: 'cw (custom weights): no number grammar to read them by' };
      const ws = cw.split('_');
      if (ws.length !== nnz) return { error: `cw (custom weights): has ${ws.length} values but the pattern has ${nnz} nonzeros` };
      let t = 0;
      for (let i = 0; i < L; i++) {
        for (const j of [...p.rows[i].keys()].sort((a, b) => a - b)) {
          const s = ws[t++];
          const w = real.test(s) ? Number(s) : NaN;
          if (!(w > 0 && Number.isFinite(w))) return { error: `cw (custom weights): value ${t} ("${s.slice(0, 20)}") must be a finite number > 0` };
          p.rows[i].set(j, w);
        }
      }
    }
    return { pattern: p };
  }
}
