// atMostEvery (web/common/dom.js): the lab's redraws while results stream in: one per animation
// frame however often they are asked for, never two within minMs, and none pending after a direct
// draw. The clock and the timers are simulated (node:test mock timers), so nothing here depends
// on how fast the machine is.
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { atMostEvery } from '../../web/common/dom.js';

// Runs body({ clock, advance }) with simulated timers and a 16 ms animation frame: clock() is the
// simulated time, advance(ms) moves it and runs what falls due.
function withFrames(body) {
  mock.timers.enable({ apis: ['setTimeout'] });
  let now = 0;
  globalThis.requestAnimationFrame = (cb) => setTimeout(cb, 16);
  globalThis.cancelAnimationFrame = (id) => clearTimeout(id);
  try {
    body({ clock: () => now, advance: (ms) => { now += ms; mock.timers.tick(ms); } });
  } finally {
    mock.timers.reset();
    delete globalThis.requestAnimationFrame;
    delete globalThis.cancelAnimationFrame;
  }
}

test('atMostEvery: calls within a frame coalesce, draws are at least minMs apart, ran() drops a pending draw', () => {
  withFrames(({ clock, advance }) => {
    const draws = [];
    const p = atMostEvery(() => draws.push(clock()), 100, clock);
    p.schedule(); p.schedule(); p.schedule();
    advance(16);
    assert.deepEqual(draws, [16], 'three requests in one frame: one draw, in the next frame');
    for (let t = 0; t < 30; t++) { p.schedule(); advance(10); }  // asked every 10 ms for 300 ms
    assert.ok(draws.length >= 3 && draws.length <= 4, `${draws.length} draws in 300 ms`);
    for (let i = 1; i < draws.length; i++) assert.ok(draws[i] - draws[i - 1] >= 100, `draws ${draws[i - 1]} and ${draws[i]} are at least 100 ms apart`);
    p.schedule();
    p.ran();  // drawn directly (the end of a run): the pending draw is dropped
    const n = draws.length;
    advance(500);
    assert.equal(draws.length, n, 'nothing pending after ran()');
    p.schedule();
    advance(16);
    assert.equal(draws.length, n + 1, 'a later request draws in the next frame (500 ms > 100 ms since ran())');
  });
});

test('atMostEvery: a function minMs is read at each request (the lab paces redraws more widely while a run streams)', () => {
  withFrames(({ clock, advance }) => {
    let running = true;
    const draws = [];
    const p = atMostEvery(() => draws.push(clock()), () => (running ? 250 : 100), clock);
    for (let t = 0; t < 60; t++) { p.schedule(); advance(10); }  // asked every 10 ms for 600 ms
    assert.ok(draws.length >= 2 && draws.length <= 3, `${draws.length} draws in 600 ms at 250 ms`);
    for (let i = 1; i < draws.length; i++) assert.ok(draws[i] - draws[i - 1] >= 250, `draws ${draws[i - 1]} and ${draws[i]} are at least 250 ms apart`);
    running = false;
    advance(1000);
    draws.length = 0;
    for (let t = 0; t < 60; t++) { p.schedule(); advance(10); }
    assert.ok(draws.length >= 5 && draws.length <= 6, `${draws.length} draws in 600 ms at 100 ms`);
  });
});
