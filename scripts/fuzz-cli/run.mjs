// attnx CLI fuzzer: running one case under a time and memory limit, and classifying it.
//   ok       exit 0, stdout valid (JSON unless --format csv/text or help/version), clean text
//   refused  exit 2, stdout empty, stderr exactly one clean line "attnx: ..." (after --progress
//            lines, if any)
//   BAD      anything else: a signal, a timeout, another exit status (1 is accepted only as
//            "attnx: cannot write the output: ..."), stdout that is not valid JSON, "success":
//            true (or "reached": true) with a null metric, raw control bytes or invalid UTF-8
//            in any output, "out of memory" (the memory limit was hit) or "internal error".
import { spawnSync } from 'node:child_process';

// The shell wrapper sets the memory limit (ulimit -v, KiB), then decodes each argument from
// printf %b octal escapes (so argv may carry bytes that are not UTF-8) and execs the CLI.
const WRAPPER = 'ulimit -v "$1" || exit 125; shift; exe=$1; shift; ' +
  'for a; do v=$(printf "%bx" "$a"); set -- "$@" "${v%x}"; shift; done; exec "$exe" "$@"';

// An argument (string or Buffer) as printf %b text: printable ASCII stays, other bytes -> \0NNN.
export function encodeArg(arg) {
  const bytes = Buffer.isBuffer(arg) ? arg : Buffer.from(String(arg), 'utf8');
  let s = '';
  for (const b of bytes) {
    if (b === 0) continue;  // argv cannot carry NUL
    s += b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\0${b.toString(8).padStart(3, '0')}`;
  }
  return s;
}

export function runCase(cli, args, { cwd, timeLimit, memLimitMiB }) {
  const r = spawnSync('/bin/sh', ['-c', WRAPPER, 'sh', String(memLimitMiB * 1024), cli, ...args.map(encodeArg)], {
    cwd, timeout: timeLimit * 1000, killSignal: 'SIGKILL', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { status: r.status, signal: r.signal, error: r.error, out: r.stdout ?? Buffer.alloc(0), err: r.stderr ?? Buffer.alloc(0) };
}

// Why a byte string is not clean text (well-formed UTF-8, no C0 control but '\n', no DEL, no
// C1 control), or null. Checked byte by byte here, independently of the CLI's escaping.
export function dirtyText(buf) {
  for (let i = 0; i < buf.length;) {
    const b = buf[i];
    if (b < 0x80) {
      if ((b < 0x20 && b !== 0x0a) || b === 0x7f) return `control byte 0x${b.toString(16)} at ${i}`;
      i++;
      continue;
    }
    const n = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 ? 2 : 0;
    const c1 = buf[i + 1];
    const bad = n === 0 || b > 0xf4 || i + n > buf.length ||
      [...buf.subarray(i + 1, i + n)].some((x) => (x & 0xc0) !== 0x80) ||
      (b === 0xc2 && c1 < 0xa0) || (b === 0xe0 && c1 < 0xa0) || (b === 0xed && c1 >= 0xa0) ||
      (b === 0xf0 && c1 < 0x90) || (b === 0xf4 && c1 >= 0x90);
    if (bad) return `invalid UTF-8 or C1 control at byte ${i} (0x${b.toString(16)})`;
    i += n;
  }
  return null;
}

const isNum = (v) => typeof v === 'number' && Number.isFinite(v);

// A success that reports a metric it could not compute.
function nullMetric(doc) {
  if (doc?.metrics?.success === true) {
    for (const k of ['rho', 'zeta', 'lambda', 'beta', 'd_star'])
      if (!isNum(doc.metrics[k])) return `"success": true with metrics.${k} = ${JSON.stringify(doc.metrics[k])}`;
  }
  if (doc?.command === 'mind' && doc.reached === true) {
    for (const k of ['d_min', 'beta', 'd_star']) if (!isNum(doc[k])) return `"reached": true with ${k} = ${JSON.stringify(doc[k])}`;
  }
  for (const p of Array.isArray(doc?.points) && doc.command !== 'frontier' ? doc.points : [])
    if (!isNum(p.d_star)) return `sweep point L=${p.L} with d_star = ${JSON.stringify(p.d_star)}`;
  return null;
}

// What stdout should be: 'json', or 'text' (help, version, --format csv/text).
export function expectedOutput(args) {
  const strs = args.filter((a) => typeof a === 'string');
  if (strs.some((a) => a === '--help' || a === '-h') || ['help', 'version', '--version', '-V', '--help', '-h'].includes(strs[0])) return 'text';
  const i = strs.lastIndexOf('--format');
  const f = strs.find((a) => a.startsWith('--format='))?.slice(9) ?? (i >= 0 ? strs[i + 1] : 'json');
  return f === 'csv' || f === 'text' ? 'text' : 'json';
}

function classifyOk(r, args) {
  const dirty = dirtyText(r.out) ?? dirtyText(r.err);
  if (dirty) return ['BAD', `exit 0 with ${dirty}`];
  if (expectedOutput(args) === 'text') return r.out.length ? ['ok'] : ['BAD', 'exit 0 with empty output'];
  let doc;
  try {
    doc = JSON.parse(r.out.toString('utf8'));
  } catch (e) {
    return ['BAD', `exit 0 but stdout is not JSON: ${e.message}`];
  }
  const nm = nullMetric(doc);
  return nm ? ['BAD', nm] : ['ok'];
}

function classifyRefused(r) {
  const text = r.err.toString('utf8');
  const dirty = dirtyText(r.err);
  if (dirty) return ['BAD', `refusal with ${dirty}`];
  if (r.out.length) return ['BAD', 'refusal with output on stdout'];
  // --progress lines ("attnx: sweep 40%") and the survey's thread notice may come first; then
  // exactly one line.
  const message = text.replace(/^(attnx: (sweep|mind L=\d+|import --all) \d+%\n|attnx import: \d+ threads at once would exceed --max-bytes; using \d+\n)+/, '');
  if (!/^attnx: [^\n]+\n$/.test(message)) return ['BAD', `refusal is not one line "attnx: ...": ${JSON.stringify(text.slice(0, 200))}`];
  if (/out of memory/.test(text)) return ['BAD', `memory limit hit: ${text.trim()}`];
  if (/internal error/.test(text)) return ['BAD', text.trim()];
  return ['refused'];
}

// [outcome, reason?] for a finished run.
export function classify(r, args) {
  if (r.error?.code === 'ETIMEDOUT') return ['BAD', 'timeout'];
  if (r.error) return ['BAD', `could not run: ${r.error.message}`];
  if (r.signal) return ['BAD', `killed by ${r.signal}`];
  if (r.status === 0) return classifyOk(r, args);
  if (r.status === 2) return classifyRefused(r);
  const text = r.err.toString('utf8');
  if (r.status === 1 && /^attnx: cannot write the output: [^\n]+\n$/.test(text)) return ['refused'];
  return ['BAD', `exit ${r.status}: ${text.slice(0, 200).trim()}`];
}
