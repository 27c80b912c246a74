// attnx CLI fuzzer: a small seeded PRNG (sfc32 seeded by splitmix32), so that every case is a
// pure function of (seed, case index) and can be replayed alone.

// sfc32 state from a 32-bit seed and a stream number (the case index), mixed by splitmix32.
export function makeRng(seed, stream = 0) {
  let x = (seed >>> 0) ^ Math.imul(stream + 1, 0x9e3779b9);
  const mix = () => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = mix(), b = mix(), c = mix(), d = mix();
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return new Rng(next);
}

class Rng {
  constructor(next) { this.next = next; }
  // Integer in [lo, hi].
  int(lo, hi) { return lo + Math.floor(this.next() * (hi - lo + 1)); }
  chance(p) { return this.next() < p; }
  pick(list) { return list[Math.floor(this.next() * list.length)]; }
  // pairs: [[weight, value], ...]
  weighted(pairs) {
    const total = pairs.reduce((s, [w]) => s + w, 0);
    let r = this.next() * total;
    for (const [w, v] of pairs) if ((r -= w) < 0) return v;
    return pairs[pairs.length - 1][1];
  }
  shuffle(list) {
    const a = [...list];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  }
}
