// attnx web: a state table mirrored to the URL hash (the single source of the URL).
// The table lists every field with its type, default and validation; the model knows nothing
// of the DOM. Parsing never throws: invalid values are reported and replaced by the default.
//
// Field spec: { type: 'int'|'number'|'string'|'enum'|'bool', def, min?, max?, values?, maxLength? }
// min/max may be functions of the partially parsed state (e.g. k <= L).

function describeRange(f, st) {
  const lo = typeof f.min === 'function' ? f.min(st) : f.min;
  const hi = typeof f.max === 'function' ? f.max(st) : f.max;
  if (f.type === 'int') return `an integer from ${lo} to ${hi}`;
  if (f.type === 'number') {
    const l = f.minOpen ? `(${lo}` : `[${lo}`;
    const h = f.maxOpen ? `${hi})` : `${hi}]`;
    return `a number in ${l}, ${h}`;
  }
  if (f.type === 'enum') return `one of ${f.values.join(', ')}`;
  if (f.type === 'bool') return '0 or 1';
  return `text of at most ${f.maxLength} characters`;
}

// Validates one raw string value. Returns { value } or { error } (error names the field and range).
export function parseField(name, f, raw, st = {}) {
  const bad = () => ({ error: `${name} must be ${describeRange(f, st)} (got "${String(raw).slice(0, 40)}")` });
  switch (f.type) {
    case 'int': {
      if (!/^-?\d+$/.test(raw)) return bad();
      const v = Number(raw);
      const lo = typeof f.min === 'function' ? f.min(st) : f.min;
      const hi = typeof f.max === 'function' ? f.max(st) : f.max;
      if (!Number.isSafeInteger(v) || v < lo || v > hi) return bad();
      return { value: v };
    }
    case 'number': {
      if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw)) return bad();
      const v = Number(raw);
      const lo = typeof f.min === 'function' ? f.min(st) : f.min;
      const hi = typeof f.max === 'function' ? f.max(st) : f.max;
      if (!Number.isFinite(v)) return bad();
      if (f.minOpen ? v <= lo : v < lo) return bad();
      if (f.maxOpen ? v >= hi : v > hi) return bad();
      return { value: v };
    }
    case 'enum':
      return f.values.includes(raw) ? { value: raw } : bad();
    case 'bool':
      return raw === '1' || raw === '0' ? { value: raw === '1' } : bad();
    default:
      return raw.length <= (f.maxLength ?? 256) ? { value: raw } : bad();
  }
}

export function defaults(table) {
  const st = {};
  for (const [k, f] of Object.entries(table)) st[k] = f.def;
  return st;
}

// Parses a hash string ("#a=1&b=2"). Returns { state, errors: [message] }. Unknown keys are errors.
// Fields are parsed in table order so that dependent ranges (k <= L) see earlier values.
export function parseHash(table, hash) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  const state = defaults(table);
  const errors = [];
  for (const key of params.keys()) {
    if (!(key in table)) errors.push(`unknown setting "${key.slice(0, 40)}" in the link`);
  }
  for (const [k, f] of Object.entries(table)) {
    if (!params.has(k)) continue;
    const r = parseField(k, f, params.get(k), state);
    if (r.error) errors.push(r.error);
    else state[k] = r.value;
  }
  return { state, errors };
}

// Serialises the fields that differ from their defaults (short links), in table order.
export function toHash(table, state) {
  const params = new URLSearchParams();
  for (const [k, f] of Object.entries(table)) {
    const v = state[k];
    if (v === undefined || v === f.def) continue;
    params.set(k, f.type === 'bool' ? (v ? '1' : '0') : String(v));
  }
  const s = params.toString();
  return s ? `#${s}` : '';
}
