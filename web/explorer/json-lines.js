// attnx web: a small strict JSON parser that reports syntax errors by line and remembers the
// line where each array element starts (so import errors can name the line).
export class JSONLineError extends Error {
  constructor(line, msg) {
    super(`line ${line}: ${msg}`);
    this.line = line;
  }
}

export function parseWithLines(text) {
  let pos = 0, line = 1;
  const lines = new WeakMap();  // array -> [line of element 0, ...]
  const fail = (msg) => { throw new JSONLineError(line, msg); };
  const ws = () => {
    for (;;) {
      const c = text[pos];
      if (c === '\n') { line++; pos++; } else if (c === ' ' || c === '\t' || c === '\r') pos++;
      else break;
    }
  };
  const show = () => (pos >= text.length ? 'end of input' : `"${text.slice(pos, pos + 12)}"`);
  function value() {
    ws();
    const c = text[pos];
    if (c === '[') return array();
    if (c === '{') return object();
    if (c === '"') return string();
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(pos, pos + 64));
    if (m) { pos += m[0].length; return Number(m[0]); }
    for (const [w, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(w, pos)) { pos += w.length; return v; }
    }
    return fail(`expected a value at ${show()}`);
  }
  function array() {
    pos++;
    const out = [], at = [];
    lines.set(out, at);
    ws();
    if (text[pos] === ']') { pos++; return out; }
    for (;;) {
      ws();
      at.push(line);
      out.push(value());
      ws();
      if (text[pos] === ',') { pos++; ws(); if (text[pos] === ']') fail('trailing comma before "]"'); continue; }
      if (text[pos] === ']') { pos++; return out; }
      fail(`expected "," or "]" at ${show()}`);
    }
  }
  function object() {
    pos++;
    const out = {};
    ws();
    if (text[pos] === '}') { pos++; return out; }
    for (;;) {
      ws();
      if (text[pos] !== '"') fail(`expected a quoted key at ${show()}`);
      const k = string();
      ws();
      if (text[pos++] !== ':') { pos--; fail(`expected ":" at ${show()}`); }
      out[k] = value();
      ws();
      if (text[pos] === ',') { pos++; continue; }
      if (text[pos] === '}') { pos++; return out; }
      fail(`expected "," or "}" at ${show()}`);
    }
  }
  function string() {
    pos++;
    let s = '';
    for (;;) {
      const c = text[pos++];
      if (c === undefined || c === '\n') fail('unterminated string');
      if (c === '"') return s;
      if (c === '\\') {
        const e = text[pos++];
        const map = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\', '/': '/' };
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(pos, pos + 4))) {
          s += String.fromCharCode(parseInt(text.slice(pos, pos + 4), 16));
          pos += 4;
        } else if (map[e] !== undefined) s += map[e];
        else fail('bad escape in string');
      } else s += c;
    }
  }
  const v = value();
  ws();
  if (pos < text.length) fail(`unexpected ${show()} after the end of the JSON value`);
  return { value: v, lineOf: (arr, idx) => lines.get(arr)?.[idx] };
}
