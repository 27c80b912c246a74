#!/usr/bin/env node
// Lists functions longer than a limit (default 60 lines, body included) in the product's sources:
// core/, cli/, wasm/, include/ (C++), web/ (JS, without the generated web/wasm/) and scripts/. A function is a line
// that opens a brace after a parameter list (C++ definitions, JS functions, methods and arrow
// functions with a block) and ends at its matching brace; braces inside strings, template
// literals, regular expressions and comments are skipped roughly (enough for this tree).
// Usage: node scripts/long-functions.mjs [--max 60] [--json]. Also imported by a Node test.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIRS = ['core', 'cli', 'wasm', 'web', 'include', 'scripts'];
const EXT = /\.(cpp|hpp|js|mjs)$/;

function files(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (relative(ROOT, p) === join('web', 'wasm') || name === 'node_modules') continue;
      out.push(...files(p));
    } else if (EXT.test(name)) out.push(p);
  }
  return out;
}

// The line with its strings, character literals and comments blanked (block comments across lines
// tracked by state.inBlock).
function code(line, state) {
  let out = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (state.inBlock) {
      if (c === '*' && line[i + 1] === '/') { state.inBlock = false; i++; }
      continue;
    }
    if (c === '/' && line[i + 1] === '*') { state.inBlock = true; i++; continue; }
    if (c === '/' && line[i + 1] === '/') break;
    if (c === '"' || c === "'" || c === '`') {
      const q = c;
      for (i++; i < line.length && line[i] !== q; i++) if (line[i] === '\\') i++;
      out += '""';
      continue;
    }
    out += c;
  }
  return out;
}

const START = /(\)\s*(const\s*)?(noexcept\s*)?(->\s*[\w:<>,\s*&]+)?(override\s*)?\{\s*$)|(=>\s*\{\s*$)/;
const NOT_FN = /^\s*(if|for|while|switch|catch|else|do|return|namespace|struct|class|enum)\b|\b(if|for|while|switch|catch)\s*\(/;

/** Functions of one file longer than max lines: [{ file, line, lines, head }]. */
export function longFunctions(path, max) {
  const lines = readFileSync(path, 'utf8').split('\n');
  const state = { inBlock: false };
  const stripped = lines.map((l) => code(l, state));
  const found = [];
  for (let i = 0; i < stripped.length; i++) {
    const s = stripped[i];
    if (!START.test(s) || NOT_FN.test(s) || /^\s*\}/.test(s)) continue;
    let depth = 0, j = i;
    for (; j < stripped.length; j++) {
      for (const ch of stripped[j]) depth += ch === '{' ? 1 : ch === '}' ? -1 : 0;
      if (depth <= 0) break;
    }
    const n = j - i + 1;
    if (n > max) found.push({ file: relative(ROOT, path), line: i + 1, lines: n, head: lines[i].trim().slice(0, 90) });
  }
  return found;
}

/** Every long function of the product's sources. */
export function scan(max = 60) {
  return DIRS.flatMap((d) => files(join(ROOT, d))).flatMap((p) => longFunctions(p, max));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--max');
  const found = scan(i > 0 ? Number(process.argv[i + 1]) : 60);
  if (process.argv.includes('--json')) console.log(JSON.stringify(found, null, 1));
  else for (const f of found) console.log(`${f.file}:${f.line}  ${f.lines} lines  ${f.head}`);
  process.exitCode = found.length ? 1 : 0;
}
