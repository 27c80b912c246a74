// attnx web: evaluates the small range expressions of the pattern description ("L", "L-1",
// "L/2", "floor((L-1)/2)", numbers) without eval (the page runs under a strict CSP).
export function evalRange(expr, L) {
  if (typeof expr === 'number') return expr;
  const s = String(expr).replace(/\s+/g, '');
  let pos = 0;
  const peek = () => s[pos];
  function num() {
    if (s.startsWith('floor(', pos)) {
      pos += 6;
      const v = sum();
      if (s[pos++] !== ')') throw new Error(`bad range expression "${expr}"`);
      return Math.floor(v);
    }
    if (peek() === '(') {
      pos++;
      const v = sum();
      if (s[pos++] !== ')') throw new Error(`bad range expression "${expr}"`);
      return v;
    }
    if (peek() === 'L') {
      pos++;
      return L;
    }
    const m = /^\d+(\.\d+)?/.exec(s.slice(pos));
    if (!m) throw new Error(`bad range expression "${expr}"`);
    pos += m[0].length;
    return Number(m[0]);
  }
  function prod() {
    let v = num();
    while (peek() === '*' || peek() === '/') {
      const op = s[pos++];
      const r = num();
      v = op === '*' ? v * r : Math.floor(v / r);
    }
    return v;
  }
  function sum() {
    let v = prod();
    while (peek() === '+' || peek() === '-') {
      const op = s[pos++];
      const r = prod();
      v = op === '+' ? v + r : v - r;
    }
    return v;
  }
  const v = sum();
  if (pos !== s.length) throw new Error(`bad range expression "${expr}"`);
  return v;
}
