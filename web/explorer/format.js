// attnx explorer: number formatting for the page (numbers stay exact in data-value attributes).
export function fmt(v, digits = 3) {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  if (v === Infinity) return '∞';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e5 || a < 1e-3) {
    const [m, e] = v.toExponential(digits - 1).split('e');
    return `${m}×10${superscript(Number(e))}`;
  }
  return Number(v.toPrecision(digits)).toString();
}

// v rounded to an integer with thousands separators ("1,024").
export function fmtInt(v) {
  return Math.round(v).toLocaleString('en-US');
}

const SUP = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
function superscript(n) {
  return String(n).split('').map((c) => SUP[c] ?? c).join('');
}

// Formats v with enough digits that it does not print equal to ref unless it is equal.
export function fmtVs(v, ref, digits = 3) {
  for (let d = digits; d <= 9; d++) {
    if (v === ref || fmt(v, d) !== fmt(ref, d)) return fmt(v, d);
  }
  return fmt(v, 9);
}

// "10⁻⁴" for n = -4.
export function pow10(n) {
  return `10${superscript(n)}`;
}
