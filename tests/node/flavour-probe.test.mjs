// Which build an engine gets (web/lib/attnx.js simdSupported): the simd build needs WebAssembly
// SIMD and WebAssembly exception handling (cmake/wasm.cmake builds it with -fwasm-exceptions; the
// scalar fallback keeps JavaScript-emulated exceptions for engines without them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { load, simdSupported } from '../../web/lib/attnx.js';
import { ROOT, requireBuilds } from './helpers.mjs';

// The ids of a WebAssembly binary's sections, in order (each: id byte, LEB128 size, contents).
function sectionIds(bytes) {
  const ids = [];
  let at = 8;  // magic and version
  while (at < bytes.length) {
    const id = bytes[at++];
    let size = 0, shift = 0, b;
    do {
      b = bytes[at++];
      size |= (b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80);
    ids.push(id);
    at += size;
  }
  return ids;
}

const TAG_SECTION = 13;
const wasmOf = (flavour) => readFileSync(`${ROOT}web/wasm/attnx_${flavour}.wasm`);
// The JS trampolines of emulated exceptions in a build's glue (the module's import names are
// minified, the glue's function names are not).
const trampolines = (flavour) => readFileSync(`${ROOT}web/wasm/attnx_${flavour}.mjs`, 'utf8').match(/function invoke_[a-z]+\(/g) || [];

test('the simd build throws natively (a tag section, no invoke_ trampolines); the scalar build emulates exceptions', () => {
  requireBuilds();
  const simd = wasmOf('simd'), scalar = wasmOf('scalar');
  assert.ok(sectionIds(simd).includes(TAG_SECTION), 'the simd build has no exception tag: built without -fwasm-exceptions?');
  assert.deepEqual(trampolines('simd'), []);
  assert.ok(!sectionIds(scalar).includes(TAG_SECTION));
  assert.ok(trampolines('scalar').length > 10, 'the scalar build routes calls that may throw through JS (invoke_*)');
});

test('an engine with SIMD but no WebAssembly exception handling gets the scalar build; forcing simd names what is missing', async (t) => {
  requireBuilds();
  assert.equal(simdSupported(), true);  // Node 20 has both
  const validate = WebAssembly.validate;
  // The exception probe is the only module here with a tag section.
  t.mock.method(WebAssembly, 'validate', (bytes) => (sectionIds(bytes).includes(TAG_SECTION) ? false : validate(bytes)));
  assert.equal(simdSupported(), false);
  await assert.rejects(load({ flavour: 'simd' }), { message: /no exception handling support, which the simd build needs: load\(\{ flavour: "scalar" \}\)/ });
  const api = await load();
  assert.equal(api.flavour, 'wasm-scalar');
  assert.equal(api.simd, false);
  t.mock.restoreAll();
  assert.equal(simdSupported(), true);
});

test('an engine without SIMD: the refusal names SIMD', async (t) => {
  const validate = WebAssembly.validate;
  t.mock.method(WebAssembly, 'validate', (bytes) => (sectionIds(bytes).includes(TAG_SECTION) ? validate(bytes) : false));
  assert.equal(simdSupported(), false);
  await assert.rejects(load({ flavour: 'simd' }), { message: /no SIMD support, which the simd build needs/ });
});
