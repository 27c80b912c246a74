// attnx web: evaluates the small range expressions of the core's schema ("L", "L-1", "step",
// "floor((L-1)/2)", numbers) without eval (the pages run under a strict CSP).

// evalRange(expr, env): expr is a number or an expression over + - * / (integer division),
// parentheses, floor(...), numbers and names; env is L (a number: the only name is L) or an object
// { name: number }. Returns a number. Throws Error('bad range expression ...') on bad syntax or an
// unknown name.
export function evalRange(expr, env) {
  if (typeof expr === 'number') return expr;
  const vars = typeof env === 'number' ? { L: env } : env || {};
  const s = String(expr).replace(/\s+/g, '');
  const bad = () => new Error(`bad range expression "${String(expr).slice(0, 40)}"`);
  let pos = 0;
  const close = (v) => {
    if (s[pos++] !== ')') throw bad();
    return v;
  };
  function atom() {
    if (s.startsWith('floor(', pos)) {
      pos += 6;
      return Math.floor(close(sum()));
    }
    if (s[pos] === '(') {
      pos++;
      return close(sum());
    }
    const m = /^(\d+(?:\.\d+)?|[A-Za-z]\w*)/.exec(s.slice(pos));
    if (!m) throw bad();
    pos += m[0].length;
    if (/^\d/.test(m[0])) return Number(m[0]);
    const v = Object.hasOwn(vars, m[0]) ? vars[m[0]] : undefined;
    if (typeof v !== 'number') throw bad();
    return v;
  }
  function prod() {
    let v = atom();
    while (s[pos] === '*' || s[pos] === '/') {
      const op = s[pos++];
      const r = atom();
      v = op === '*' ? v * r : Math.floor(v / r);
    }
    return v;
  }
  function sum() {
    let v = prod();
    while (s[pos] === '+' || s[pos] === '-') {
      const op = s[pos++];
      const r = prod();
      v = op === '+' ? v + r : v - r;
    }
    return v;
  }
  const v = sum();
  if (pos !== s.length) throw bad();
  return v;
}
