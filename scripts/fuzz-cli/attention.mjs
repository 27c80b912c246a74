// attnx CLI fuzzer: attention files for `attnx import` (issue 24). Valid .npy (float16/32/64,
// either byte order, C or Fortran order, ranks 2 to 4), .npz (stored, and deflated by Node's
// zlib) and JSON, then the attacks the readers must refuse: truncations and corrupted bytes,
// huge declared shapes, pickles (object dtypes), deflate bombs (a small declared size over a
// stream of megabytes, or a declared size far above the budget), wrong CRCs, scores instead of
// probabilities, NaN, infinities; a shape with leading zeros (08); JSON read straight into its
// values (issue 47): ragged and deep arrays, misplaced commas, hundreds of thousands of rows
// (refused by shape before a value is read), numbers in every form, other and repeated keys,
// tokens that are not Unicode text (bytes that are not UTF-8, lone surrogates) or too many.
// Every file is a Buffer and a pure function of the generator.
import { deflateRawSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function le(value, bytes) {
  const b = Buffer.alloc(bytes);
  for (let k = 0; k < bytes; k++) b[k] = Number((BigInt(value) >> BigInt(8 * k)) & 0xffn);
  return b;
}

// A .npy file with dict text `dict` and data bytes.
function npyFile(dict, data) {
  let header = dict;
  while ((10 + header.length + 1) % 64) header += ' ';
  header += '\n';
  return Buffer.concat([Buffer.from([0x93]), Buffer.from('NUMPY'), Buffer.from([1, 0]), le(header.length, 2), Buffer.from(header, 'latin1'), data]);
}

const dictOf = (descr, fortran, shape) =>
  `{'descr': '${descr}', 'fortran_order': ${fortran ? 'True' : 'False'}, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;

// Values of `count` rows of L: probabilities (rows summing to 1), or scores, or with a bad entry.
function values(rng, shape) {
  const L = shape[shape.length - 1];
  const count = shape.reduce((a, b) => a * b, 1);
  const kind = rng.weighted([[6, 'prob'], [2, 'scores'], [1, 'nan'], [1, 'inf']]);
  const v = new Float64Array(count);
  for (let r = 0; r < count / L; r++) {
    let sum = 0;
    for (let j = 0; j < L; j++) sum += (v[r * L + j] = kind === 'scores' ? rng.next() * 8 - 4 : rng.next() ** 3);
    if (kind !== 'scores') for (let j = 0; j < L; j++) v[r * L + j] /= sum;
  }
  if (kind === 'nan') v[rng.int(0, count - 1)] = NaN;
  if (kind === 'inf') v[rng.int(0, count - 1)] = rng.chance(0.5) ? -Infinity : Infinity;
  return v;
}

function floatBytes(v, size, big) {
  const b = Buffer.alloc(v.length * size);
  v.forEach((x, n) => {
    if (size === 8) big ? b.writeDoubleBE(x, 8 * n) : b.writeDoubleLE(x, 8 * n);
    else if (size === 4) big ? b.writeFloatBE(x, 4 * n) : b.writeFloatLE(x, 4 * n);
    else {  // float16 by rounding through a float32's bits (good enough for a fuzzer)
      const f = new Float32Array([x]), u = new Uint32Array(f.buffer)[0];
      const e = ((u >>> 23) & 0xff) - 127 + 15, sign = (u >>> 16) & 0x8000;
      const h = Number.isNaN(x) ? 0x7e00 : e >= 31 ? sign | 0x7c00 : e <= 0 ? sign : sign | (e << 10) | ((u >>> 13) & 0x3ff);
      big ? b.writeUInt16BE(h, 2 * n) : b.writeUInt16LE(h, 2 * n);
    }
  });
  return b;
}

// A valid-looking float .npy (the values may still be refused: scores, NaN, infinities).
function npy(rng) {
  const L = rng.pick([2, 3, 5, 8, 16]);
  const shape = [...Array.from({ length: rng.int(0, 2) }, () => rng.int(1, 3)), L, L];
  const size = rng.pick([2, 4, 8]), big = rng.chance(0.2);
  return npyFile(dictOf(`${big ? '>' : '<'}f${size}`, rng.chance(0.3), shape), floatBytes(values(rng, shape), size, big));
}

function tokens(rng, L) {
  const n = rng.chance(0.8) ? L : rng.int(0, L + 2);
  const data = Buffer.alloc(4 * 2 * n);
  for (let k = 0; k < 2 * n; k++) data.writeUInt32LE(rng.pick([0x61, 0xe9, 0x4e2d, 0x1f600, 0, 0xd800, 0x110000]), 4 * k);
  return npyFile(dictOf('<U2', false, [n]), data);
}

// A ZIP archive of entries { name, data (stored bytes), method, crc, size }.
function zip(entries) {
  const parts = [], central = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const fields = [le(20, 2), le(0, 2), le(e.method, 2), le(0, 4), le(e.crc, 4), le(e.data.length, 4), le(e.size, 4), le(name.length, 2), le(0, 2)];
    const local = Buffer.concat([le(0x04034b50, 4), ...fields, name, e.data]);
    central.push(Buffer.concat([le(0x02014b50, 4), le(20, 2), ...fields, le(0, 2), le(0, 2), le(0, 2), le(0, 4), le(offset, 4), name]));
    parts.push(local);
    offset += local.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.concat([le(0x06054b50, 4), le(0, 4), le(entries.length, 2), le(entries.length, 2), le(cd.length, 4), le(offset, 4), le(0, 2)]);
  return Buffer.concat([...parts, cd, end]);
}

function entry(rng, name, raw, deflate) {
  const data = deflate ? deflateRawSync(raw, { level: rng.int(0, 9) }) : raw;
  return { name, data, method: deflate ? 8 : 0, crc: crc32(raw), size: raw.length };
}

function npz(rng) {
  const att = npy(rng);
  const L = Number(/(\d+)\), \}/.exec(att.toString('latin1', 10, 120))?.[1] ?? 2);
  const deflate = rng.chance(0.5);
  const es = [entry(rng, rng.chance(0.9) ? 'attention.npy' : 'arr_0.npy', att, deflate)];
  if (rng.chance(0.5)) es.push(entry(rng, 'tokens.npy', tokens(rng, L), deflate));
  return zip(rng.shuffle(es));
}

function json(rng) {
  const L = rng.pick([2, 3, 5]);
  const v = values(rng, [L, L]);
  const rows = Array.from({ length: L }, (_, i) => `[${Array.from(v.subarray(i * L, i * L + L), (x) => (Number.isFinite(x) ? x : 'null')).join(', ')}]`);
  const att = rng.chance(0.5) ? `[${rows.join(', ')}]` : `[[${rows.join(', ')}]]`;
  if (rng.chance(0.5)) return Buffer.from(att);
  return Buffer.from(`{"tokens": [${Array.from({ length: rng.chance(0.8) ? L : L + 1 }, (_, i) => `"t${i}"`).join(', ')}], "attention": ${att}}`);
}

// A JSON number in one of its forms (the fast path and strtod's), or a value that is none.
function jsonNumber(rng) {
  return rng.pick(['0', '-0', '1', '0.5', '0.25', '1e0', '5E-1', '0.1000000000000000055511151231257827', '1e400', '-1e-400',
    '0.333333333333333314829616256247390992939472198486328125', '00', '.5', '1.', '+1', '0x1', 'NaN', 'null', '"0.5"', '[0.5]', '{}', 'true']);
}

// A JSON token for the tokens list: text, or what is not Unicode text, or not a string.
function jsonToken(rng) {
  return rng.pick(['"the"', '"\\u00e9t\\u00e9"', '"\\ud83d\\ude00"', '"\\ud800"', '"a\\udfffb"', '"\\ud800\\u0041"', '"\xff"', '"\xc0\xaf"',
    '"\xed\xa0\x80"', '"\xe2\x80\xae"', '"</script>"', '"\n\t"', '1', 'null', '["a"]', `"${'x'.repeat(rng.pick([1, 1000, 100000]))}"`]);
}

// JSON attention texts the streaming reader must read or refuse: shapes found from first entries.
function jsonTorture(rng) {
  const L = rng.pick([2, 3, 4]);
  const row = () => `[${Array.from({ length: L }, () => (rng.chance(0.9) ? String(1 / L) : jsonNumber(rng))).join(rng.pick([',', ', ', ',\n ']))}]`;
  const rows = () => Array.from({ length: rng.chance(0.85) ? L : rng.int(0, L + 2) }, row);
  const heads = () => `[${rows().join(',')}${rng.chance(0.1) ? ',' : ''}]`;
  const att = rng.weighted([
    [4, () => heads()],
    [3, () => `[${Array.from({ length: rng.int(1, 3) }, heads).join(',')}]`],
    [1, () => `[[${Array.from({ length: rng.int(1, 2) }, () => `[${heads()}]`).join(',')}]]`],
    [1, () => `${'['.repeat(rng.int(5, 80))}1${']'.repeat(rng.int(0, 80))}`],
    [1, () => `[${Array.from({ length: rng.pick([1000, 200000]) }, () => '[1]').join(',')}]`],
    [1, () => `[[${'1,'.repeat(rng.int(0, 5000))}1]]`],
  ])();
  if (rng.chance(0.4)) return Buffer.from(att, 'latin1');
  const tokens = `[${Array.from({ length: rng.chance(0.8) ? L : rng.pick([0, L + 1, 5000]) }, () => (rng.chance(0.8) ? `"t"` : jsonToken(rng))).join(', ')}]`;
  const members = rng.shuffle([`"attention": ${att}`, `"tokens": ${tokens}`, ...(rng.chance(0.3) ? ['"x": {"a": [1, {"b": null}], "a": 2}'] : []),
    ...(rng.chance(0.2) ? ['"attention": []'] : []), ...(rng.chance(0.2) ? ['"meta": {"deep": [[[["]"]]]]}'] : [])]);
  return Buffer.concat([Buffer.from(rng.chance(0.1) ? [0xef, 0xbb, 0xbf] : []), Buffer.from(`{${members.join(', ')}}`, 'latin1')]);
}

// The attacks: each a file the readers must refuse (or read) without crashing or overspending.
function attack(rng) {
  return rng.weighted([
    [3, () => jsonTorture(rng)],
    [1, () => npyFile(`{'descr': '<f4', 'fortran_order': False, 'shape': (${rng.pick(['08, 008', '02, 2', '2, 02', '00, 00', '0, 0', '2, 2'])}), }`, Buffer.alloc(16))],
    [2, () => npyFile(dictOf('<f4', false, rng.pick([[1000000000, 4096, 4096], [4096, 4096], [4096, 4097], [3000000, 2, 2], [65536, 65536, 65536, 65536]])), Buffer.alloc(rng.int(0, 64)))],
    [1, () => npyFile(`{'descr': '<f4', 'fortran_order': False, 'shape': (${'9'.repeat(rng.int(10, 30))}, 2), }`, Buffer.alloc(16))],
    [2, () => npyFile(dictOf('|O', false, [1]), Buffer.from('\x80\x03cbuiltins\neval\nq\x00X\x04\x00\x00\x00exitq\x01\x85q\x02Rq\x03.', 'latin1'))],
    [1, () => Buffer.from('\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00}\x94.', 'latin1')],
    [2, () => {  // a bomb: megabytes of zeros under a small declared size
      const att = npyFile(dictOf('<f4', false, [2, 2]), Buffer.alloc(16));
      const zeros = Buffer.concat([att, Buffer.alloc(rng.pick([1, 8, 64]) << 20)]);
      return zip([{ name: 'attention.npy', data: deflateRawSync(zeros, { level: 9 }), method: 8, crc: crc32(att), size: att.length }]);
    }],
    [2, () => {  // a declared size far above the budget over a short stream
      const att = npyFile(dictOf('<f4', false, [64, 1024, 1024]), Buffer.alloc(64));
      return zip([{ name: 'attention.npy', data: deflateRawSync(att), method: 8, crc: crc32(att), size: att.length - 64 + 4 * 64 * 1024 * 1024 }]);
    }],
    [1, () => {  // a wrong CRC
      const z = entry(rng, 'attention.npy', npy(rng), rng.chance(0.5));
      return zip([{ ...z, crc: (z.crc ^ 1) >>> 0 }]);
    }],
    [1, () => zip([entry(rng, 'archive/data.pkl', Buffer.from('\x80\x02}q\x00.', 'latin1'), false)])],
    [1, () => npyFile(rng.pick(["{'descr': '<f4', 'fortran_order': False}", "{'descr': '<f4', 'shape': (2, 2), 'fortran_order': False, 'x': 1}",
      "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}", "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 2), }",
      "__import__('os').system('true')", "{'descr': '<f4', 'fortran_order': False, 'shape': (2)}"]), Buffer.alloc(16))],
  ])();
}

function corrupt(rng, buf) {
  let b = Buffer.from(buf);
  for (let k = rng.int(1, 3); k > 0 && b.length; k--) {
    const at = rng.int(0, b.length - 1);
    if (rng.chance(0.4)) b = b.subarray(0, at);
    else b[at] = rng.int(0, 255);
  }
  return b;
}

// The content of one attention file.
export function genAttentionFile(rng) {
  const base = () => rng.weighted([[3, npy], [3, npz], [2, json]])(rng);
  return rng.weighted([
    [4, base],
    [4, () => attack(rng)],
    [4, () => corrupt(rng, base())],
  ])();
}
