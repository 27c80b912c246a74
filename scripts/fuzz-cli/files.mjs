// attnx CLI fuzzer: custom pattern files (--pattern-file) and hostile paths. Texts are Buffers:
// valid JSON and lines forms, then truncated, corrupted (control bytes, NUL, invalid UTF-8, BOM),
// number torture (1e-400, 1e400, subnormals, > 64-digit numbers), deep nesting, duplicate keys,
// wrong types, many entries.

const NUMBERS = ['0', '1', '-0', '0.0', '1e-400', '-1e-400', '1e400', '1e308', '1.7976931348623157e308',
  '5e-324', '2.2250738585072014e-308', '1e-300', '1e300', '1E2', '1e+2', '01', '+1', '.5', '5.',
  '0x10', 'NaN', 'Infinity', '-1', '1.5', '2', '3', '0.1', '9'.repeat(65), `1.${'0'.repeat(70)}1`,
  `0.${'0'.repeat(330)}1`, '1e-5000', '123456789012345678901234567890'];

// Entries of a valid pattern on L: one per row, then n more (distinct cells; a repeated cell is
// left in one time in ten, which the reader refuses).
function triplets(rng, L, n) {
  const out = [];
  const seen = new Set();
  const add = (i, j, w) => {
    if (seen.has(i * L + j) && !rng.chance(0.1)) return;
    seen.add(i * L + j);
    out.push([i, j, w]);
  };
  for (let i = 0; i < L; i++) add(i, rng.int(0, L - 1), rng.pick(['1', '0.5', '2', '0.25']));
  for (let e = 0; e < n; e++) add(rng.int(0, L - 1), rng.int(0, L - 1), rng.pick(['1', '3', '0.125']));
  return rng.chance(0.5) ? out : rng.shuffle(out);
}

const jsonList = (ts, sep = ',\n') => `[${ts.map((t) => `[${t.join(',')}]`).join(sep)}]`;
const csv = (ts, sep = ',', eol = '\n') => ts.map((t) => t.join(sep)).join(eol) + eol;

// A valid text (most of the time: random cells may repeat, which the reader refuses).
function validText(rng) {
  const L = rng.pick([2, 3, 5, 16, 64]);
  const ts = triplets(rng, L, rng.int(0, 2 * L));
  return rng.weighted([
    [3, () => `{"L": ${L}, "triplets": ${jsonList(ts)}}\n`],
    [2, () => jsonList(ts, rng.pick([',', ', ', ',\n', ' ,\r\n']))],
    [3, () => (rng.chance(0.3) ? rng.pick(['i,j,w\n', '# comment\n', 'row;col;weight\n', '\n\n']) : '') +
      csv(ts, rng.pick([',', ';', '\t', ' ', ' , ', '  ']), rng.pick(['\n', '\r\n', '\n\n']))],
    [1, () => `{"format": "attnx-construct-export/2", "L": ${L}, "d": 4, "A": ${jsonList(ts)}, "X": [[1]]}`],
  ])();
}

// Torture of one kind: numbers, nesting, keys, types, sizes.
function tortureText(rng) {
  const num = () => rng.pick(NUMBERS);
  return rng.weighted([
    [4, () => jsonList(Array.from({ length: rng.int(1, 4) }, () => [num(), num(), num()]))],
    [3, () => csv(Array.from({ length: rng.int(1, 4) }, () => [num(), num(), num()]))],
    [2, () => `{"L":${num()},"triplets":[[0,0,${num()}],[0,1,${num()}],[1,1,${num()}]]}`],
    [1, () => '{"L":2,"triplets":[[0,0,1e308],[0,1,1e308],[1,1,1]]}'],
    [1, () => '{"L":2,"triplets":[[0,0,1e300],[0,1,1e-300],[1,1,5e-324]]}'],
    [2, () => { const n = rng.pick([63, 64, 65, 1000, 100000]); return '['.repeat(n) + (rng.chance(0.7) ? ']'.repeat(n) : ''); }],
    [2, () => rng.pick(['{"L":2,"L":3,"triplets":[[0,0,1],[1,1,1]]}', '{"triplets":[[0,0,1]],"triplets":[[1,1,1]]}',
      '{"__proto__":{"L":2},"triplets":[[0,0,1],[1,1,1]]}', '{"constructor":1,"triplets":[[0,0,1],[1,1,1]]}',
      '{"L":"2","triplets":[[0,0,1],[1,1,1]]}', '{"L":2.5,"triplets":[]}', '{"L":null,"triplets":{}}',
      '{"L":2,"triplets":[[0,0,1],[1,1,1]],}', '[[0,0,1],[1,1,1],]', '[[0,0,1] [1,1,1]]', '{"L":2}',
      '[[0,0,"1"],[1,1,true]]', '[[0,0],[1,1,1,1]]', '[{"i":0,"j":0,"w":1}]', '[]', '{}', 'null', '"x"',
      '[[0,0,1],[1,1,1]] trailing', '/* c */[[0,0,1],[1,1,1]]', '{"L":2,"triplets":[[0,0,1],[1,1,1]]}{}'])],
    [2, () => rng.pick(['', ' ', '\n\n', '\ufeff', '\ufeff\ufeff[[0,0,1]]', '# only a comment\n', 'i,j,w\n',
      '0,0,1\n1,1', '0,0,1,\n1,1,1\n', '0 0 1\n1\t1\t1\n', '0;0;1\r\n1;1;1\r\n', '"0","0","1"\n'])],
    [1, () => manyEntries(rng)],
  ])();
}

// 10^4 to 2 * 10^5 entries (up to a few MB): above the smallest budgets' text limit.
function manyEntries(rng) {
  const L = rng.pick([1000, 4096, 16384]);
  const n = rng.pick([10000, 50000, 200000]);
  const parts = [];
  for (let e = 0; e < n; e++) parts.push(`[${e % L},${(e * 7919) % L},1]`);
  return rng.chance(0.5) ? `{"L":${L},"triplets":[${parts.join(',')}]}` : parts.map((p) => p.slice(1, -1)).join('\n');
}

const HOSTILE_BYTES = [[0x00], [0x1b, 0x5b, 0x32, 0x4a], [0x1b, 0x5d, 0x30, 0x3b, 0x78, 0x07], [0xef, 0xbb, 0xbf],
  [0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x80, 0xae], [0x7f], [0xc2, 0x9b], [0x0d], [0x08]];

// Corrupts a text: truncation, insertions of hostile bytes, byte flips, a BOM in front.
function corrupt(rng, buf) {
  let b = buf;
  const n = rng.int(1, 3);
  for (let k = 0; k < n; k++) {
    const at = rng.int(0, b.length);
    const op = rng.weighted([[3, 'truncate'], [4, 'insert'], [2, 'flip'], [1, 'bom']]);
    if (op === 'truncate') b = b.subarray(0, at);
    else if (op === 'insert') b = Buffer.concat([b.subarray(0, at), Buffer.from(rng.pick(HOSTILE_BYTES)), b.subarray(at)]);
    else if (op === 'flip' && b.length) { b = Buffer.from(b); b[Math.min(at, b.length - 1)] = rng.int(0, 255); }
    else if (op === 'bom') b = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]);
  }
  return b;
}

// The content of one pattern file.
export function genPatternText(rng) {
  const kind = rng.weighted([[3, 'valid'], [4, 'torture'], [4, 'corrupt'], [1, 'garbage']]);
  if (kind === 'valid') return Buffer.from(validText(rng));
  if (kind === 'torture') return Buffer.from(tortureText(rng));
  if (kind === 'corrupt') return corrupt(rng, Buffer.from(rng.chance(0.5) ? validText(rng) : tortureText(rng)));
  return Buffer.from(Array.from({ length: rng.int(0, 300) }, () => rng.int(0, 255)));
}

// Paths that are not plain files, for --pattern-file ("read") or --export ("write"); `dir` is
// the case's scratch directory (a Buffer path keeps bytes that are not UTF-8).
export function hostilePath(rng, dir, mode) {
  const inDir = (name) => Buffer.concat([Buffer.from(`${dir}/`), Buffer.isBuffer(name) ? name : Buffer.from(name)]);
  const common = [dir, `${dir}/missing/x.json`, '', '-', inDir(Buffer.from([0xff, 0x1b, 0x2e, 0x6a])),
    inDir('new\nline'), inDir('\x1b[31mred'), inDir('\u202etxt.json'), `${dir}/${'x'.repeat(300)}`,
    `${dir}/${'d/'.repeat(2100)}x`, '/proc/self/status', '/dev/null'];
  const read = ['/dev/zero', '/dev/urandom', '/dev/full', '/proc/self/maps', '/etc', '/'];
  const write = ['/dev/full', '/proc/version', `${dir}/`, '/'];
  return rng.pick([...common, ...(mode === 'read' ? read : write)]);
}
