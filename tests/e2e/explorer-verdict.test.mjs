// The explorer's verdict says what it does not mean: lambda (the core's leaked mass) next to the
// badge with one line, and the verdict dimmed while a newer result is being computed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './site-harness.mjs';
import { reusedPage } from './page-reuse.mjs';

const site = useSite();

async function ready(page, n) {
  await page.waitForFunction((n) => Number(document.documentElement.dataset.runs || 0) >= n
    && document.documentElement.dataset.busy === '0', n, { timeout: 90000 });
}

test('the verdict shows lambda with what it means, and is dimmed while a newer result computes', async () => {
  const { context, page } = await reusedPage(site.browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${site.server.url}#v=1&L=256&d=1024&help=0`);
  await ready(page, 1);
  const r = await page.evaluate(() => ({
    lambda: Number(document.querySelector('#metrics [data-metric="lambda"]').dataset.value),
    success: document.querySelector('#metrics [data-metric="success"]').dataset.value,
    note: document.querySelector('#metrics .leak-note').textContent,
    stale: document.querySelector('#metrics-body').classList.contains('stale'),
    summary: document.querySelector('#summary').textContent,
  }));
  assert.equal(r.success, 'true');
  assert.ok(r.lambda > 0.5, `the default example leaks most of its mass (lambda ${r.lambda})`);
  assert.ok(r.note.includes(`up to ${Math.round(100 * r.lambda)} % of a row's attention lies off its pattern`), r.note);
  assert.match(r.note, /at least 254 entries off a row's pattern may keep up to τ = 0\.1 times/);
  assert.equal(r.stale, false, 'a current verdict is not dimmed');
  assert.doesNotMatch(r.summary, /approximates/, 'the summary does not claim more than (R) and (Z)');
  // A slow change: the verdict is dimmed from the input on, until the new result is shown.
  const dimmed = await page.evaluate(() => {
    const input = document.getElementById('f-L');
    input.value = '2048';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    return [document.querySelector('#metrics-body').classList.contains('stale'), document.querySelector('#summary').classList.contains('stale')];
  });
  assert.deepEqual(dimmed, [true, true]);
  await ready(page, 2);
  assert.equal(await page.evaluate(() => document.querySelector('#metrics-body').classList.contains('stale')), false);
  await context.close();
});
