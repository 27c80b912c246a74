// Every invalid option is refused with a RangeError naming the field and its range; nothing
// aborts the module, and the next call works. Both flavours.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadBoth } from './helpers.mjs';

let apis;
before(async () => {
  apis = await loadBoth();
});

// [method, args, field, message pattern]
const CASES = [
  ['construct', [{ L: 1 }], 'L', /^L must be an integer from 2 to 16384 \(got 1\)$/],
  ['construct', [{ L: 16385 }], 'L', /^L must be an integer from 2 to 16384 \(got 16385\)$/],
  ['construct', [{ L: 2.5 }], 'L', /^L must be an integer from 2 to 16384 \(got 2\.5\)$/],
  ['construct', [{ L: '256' }], 'L', /^L must be an integer from 2 to 16384 \(got "256"\)$/],
  ['construct', [{ L: NaN }], 'L', /^L must be an integer from 2 to 16384 \(got NaN\)$/],
  ['construct', [{ L: 1e12 }], 'L', /^L must be an integer from 2 to 16384 \(got 1000000000000\)$/],
  ['construct', [{ L: 64, k: 0 }], 'k', /^k must be an integer from 1 to 64 \(got 0\)$/],
  ['construct', [{ L: 64, k: 65 }], 'k', /^k must be an integer from 1 to 64 \(got 65\)$/],
  ['construct', [{ L: 64, k: 1e10 }], 'k', /^k must be an integer from 1 to 64/],
  ['construct', [{ pattern: 'window', L: 64, w: 64 }], 'w', /^w must be an integer from 0 to 63 \(got 64\)$/],
  ['construct', [{ pattern: 'dilated', L: 64, r: 0 }], 'r', /^r must be an integer from 1 to 63 \(got 0\)$/],
  ['construct', [{ pattern: 'block', L: 64, block: 65 }], 'block', /^block must be an integer from 1 to 64/],
  ['construct', [{ pattern: 'strided', L: 64, stride: 0 }], 'stride', /^stride must be an integer from 1 to 64/],
  ['construct', [{ pattern: 'bigbird', L: 64, globals: -1 }], 'globals', /^globals must be an integer from 0 to 64/],
  ['construct', [{ pattern: 'bigbird', L: 64, randoms: 64 }], 'randoms', /^randoms must be an integer from 0 to 63/],
  ['construct', [{ pattern: 'circle' }], 'pattern', /^pattern must be one of random, permutation, window, causal, dilated, block, strided, bigbird, custom \(got "circle"\)$/],
  ['construct', [{ pattern: 5 }], 'pattern', /^pattern must be one of .* \(got "<5>"\)$/],
  ['construct', [{ weights: 'heavy' }], 'weights', /^weights must be one of uniform, random, decaying \(got "heavy"\)$/],
  ['construct', [{ weights: 'random', wMin: 0 }], 'wMin', /^wMin must be a number in \(0, 1\] \(got 0\)$/],
  ['construct', [{ weights: 'random', wMin: 'x' }], 'wMin', /^wMin must be a number \(got "x"\)$/],
  ['construct', [{ weights: 'decaying', decay: -1 }], 'decay', /^decay must be a number in \[0, 10\] \(got -1\)$/],
  ['construct', [{ eps: 0 }], 'eps', /^eps must be a number in \[1e-06, 100\] \(got 0\)$/],
  ['construct', [{ eps: Infinity }], 'eps', /^eps must be a number in \[1e-06, 100\] \(got Infinity\)$/],
  ['construct', [{ tau: 1.5 }], 'tau', /^tau must be a number in \(0, 1\) \(got 1\.5\)$/],
  ['construct', [{ tau: 1 }], 'tau', /^tau must be a number in \(0, 1\) \(got 1\)$/],
  ['construct', [{ delta: 0 }], 'delta', /^delta must be a number in \(0, 1\) \(got 0\)$/],
  ['construct', [{ d: 0 }], 'd', /^d must be an integer from 1 to 16384 \(got 0\)$/],
  ['construct', [{ d: 16385 }], 'd', /^d must be an integer from 1 to 16384 \(got 16385\)$/],
  ['construct', [{ seed: -1 }], 'seed', /^seed must be an integer from 0 to 9007199254740991 \(got -1\)$/],
  ['construct', [{ seed: 2 ** 53 }], 'seed', /^seed must be an integer from 0 to 9007199254740991 \(got 9007199254740992\)$/],
  ['construct', [{ seed: 1.5 }], 'seed', /^seed must be an integer from 0 to 9007199254740991 \(got 1\.5\)$/],
  ['construct', [{ seed: 1n }], 'seed', /^seed must be an integer from 0 to 9007199254740991 \(got 1n\)$/],
  ['construct', [{ maxBytes: 1000 }], 'maxBytes', /^maxBytes must be an integer from 1048576 to 4294967296 \(got 1000\)$/],
  ['construct', [{ kk: 2 }], 'kk', /^unknown option "kk" \(allowed: pattern, L, k, .*\)$/],
  ['construct', [{ dmax: 64 }], 'dmax', /^unknown option "dmax"/],
  ['construct', [[1, 2]], 'options', /^options must be a plain object \(got an array\)$/],
  ['construct', [42], 'options', /^options must be a plain object \(got 42\)$/],
  ['construct', [{ pattern: 'custom', L: 4 }], 'triplets', /^pattern custom needs triplets \{rows, cols, vals\}/],
  ['construct', [{ pattern: 'custom', triplets: { rows: [0], cols: [0], vals: [1] } }], 'L', /^L must be given with pattern custom/],
  ['construct', [{ pattern: 'window', L: 4, triplets: { rows: [0], cols: [0], vals: [1] } }], 'triplets', /^triplets are only used with pattern custom \(got pattern window\)$/],
  ['construct', [{ L: 2, triplets: { rows: [0, 1], cols: [0, 2], vals: [1, 1] } }], 'triplets', /^entry 1: column index must be an integer from 0 to 1 \(got 2\)$/],
  ['construct', [{ L: 2, triplets: { rows: [0, 1.5], cols: [0, 1], vals: [1, 1] } }], 'triplets', /^entry 1: row index must be an integer from 0 to 1 \(got 1\.5\)$/],
  ['construct', [{ L: 2, triplets: { rows: [0, 1], cols: [0, 1], vals: [1, -1] } }], 'triplets', /^entry 1: weight must be a finite number >= 0 \(got -1\)$/],
  ['construct', [{ L: 2, triplets: { rows: [0, 0, 1], cols: [0, 0, 1], vals: [1, 1, 1] } }], 'triplets', /^entry 1: duplicates \(0, 0\) of entry 0$/],
  ['construct', [{ L: 3, triplets: { rows: [0, 1], cols: [0, 1], vals: [1, 1] } }], 'triplets', /^row 2 has no positive weight/],
  ['construct', [{ L: 2, triplets: { rows: [0, 1], cols: [0], vals: [1, 1] } }], 'triplets', /^triplets\.rows, \.cols and \.vals must have the same length \(got 2, 1, 2\)$/],
  ['construct', [{ L: 2, triplets: { rows: [0, 1], cols: [0, 1] } }], 'triplets', /^triplets\.vals must be an array or typed array of numbers \(got undefined\)$/],
  ['construct', [{ L: 16384, d: 16384 }], 'maxBytes', /^construct needs about \d+ MiB, above the memory budget of 2048 MiB/],
  ['minD', [{ step: 0 }], 'step', /^step must be an integer from 1 to 16384 \(got 0\)$/],
  ['minD', [{ step: 32, dmax: 16 }], 'dmax', /^dmax must be an integer from 32 to 16384 \(got 16\)$/],
  ['minD', [{ dmax: 20000 }], 'dmax', /^dmax must be an integer from 1 to 16384 \(got 20000\)$/],
  ['minD', [{ d: 64 }], 'd', /^unknown option "d"/],
  ['minD', [{ L: 16384, maxBytes: 2 ** 20 }], 'maxBytes', /^min-d search needs about \d+ MiB, above the memory budget of 1 MiB/],
  ['sweepPoint', [{ trials: 0 }], 'trials', /^trials must be an integer from 1 to 1000 \(got 0\)$/],
  ['sweepPoint', [{ trials: 1001 }], 'trials', /^trials must be an integer from 1 to 1000/],
  ['sweepPoint', [{ pattern: 'custom', L: 2, triplets: { rows: [0, 1], cols: [0, 1], vals: [1, 1] } }], 'pattern', /^pattern custom cannot be swept over L/],
  ['fits', [[64, 128], [1]], 'ds', /^ds must be an array as long as Ls/],
  ['fits', [[64, NaN], [1, 2]], 'Ls', /^Ls\[1\] must be a finite number \(got NaN\)$/],
  ['fits', ['x', []], 'Ls', /^Ls must be an array of numbers/],
  ['median', [[16, 'x']], 'ds', /^ds\[1\] must be an integer d from 1 to 16384 or null/],
  ['quantile', [[16], 1], 'delta', /^delta must be a number in \(0, 1\) \(got 1\)$/],
  ['estimateBytes', [{ L: 0 }], 'L', /^L must be an integer from 2 to 16384 \(got 0\)$/],
];

for (const flavour of ['simd', 'scalar']) {
  test(`${flavour}: invalid options are refused with the field and range; the module stays usable`, () => {
    const api = apis[flavour];
    for (const [method, args, field, pattern] of CASES) {
      const what = `${method}(${JSON.stringify(args, (k, v) => (typeof v === 'bigint' ? `${v}n` : v))})`;
      let err;
      try {
        api[method](...args);
      } catch (e) {
        err = e;
      }
      assert.ok(err, `${what} should throw`);
      assert.equal(err.name, 'RangeError', `${what}: ${err}`);
      assert.match(err.message, pattern, what);
      assert.equal(err.field, field, `${what} field`);
      assert.equal(err.kind, /needs about/.test(err.message) ? 'budget' : 'invalid', `${what} kind`);
      // The next call works.
      assert.equal(api.construct({ L: 8, d: 4, seed: 1 }).L, 8, `usable after ${what}`);
    }
  });
}

test('the budget estimate is exactly what the runs check', () => {
  const api = apis.simd;
  for (const opts of [{ L: 1024, step: 16 }, { L: 700, step: 48, pattern: 'window', w: 3 }]) {
    const e = api.estimateBytes(opts);
    assert.ok(api.minD({ ...opts, dmax: 48, maxBytes: e.mind }), 'runs at exactly the estimate');
    assert.throws(() => api.minD({ ...opts, dmax: 48, maxBytes: e.mind - 1 }), { kind: 'budget', field: 'maxBytes' });
  }
  const e = api.estimateBytes({ L: 512, d: 64 });
  assert.ok(api.construct({ L: 512, d: 64, maxBytes: e.construct }));
  assert.throws(() => api.construct({ L: 512, d: 64, maxBytes: e.construct - 1 }), { kind: 'budget' });
});
