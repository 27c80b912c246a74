// The lab's verdict on the fits rests on the core's bootstrap comparison of the trials: it says
// when the two fits cannot be told apart, and then offers the same sweep on a wider grid in one
// click, whose verdict is again the core's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchChromium, servedDir } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { load } from '../../web/lib/attnx.js';

let server, browser, api;

before(async () => {
  server = await startServer(servedDir(), 0);
  browser = await launchChromium();
  api = await load({ flavour: 'simd' });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const done = (page) => page.waitForFunction(() => window.attnxLab && document.body.dataset.run === 'done'
  && /bootstrap|two or more/.test(document.getElementById('fit-sentence').textContent), null, { timeout: 180000 });

// The core's verdict for the page's result, computed here from the trials the page shows.
async function coreVerdict(page) {
  const res = await page.evaluate(() => window.attnxLab.result);
  return api.summariseSweep({ delta: res.params.delta, points: res.points.map((p) => ({ L: p.L, dMins: p.d_mins })) }).fitComparison.verdict;
}

test('the paper preset\'s verdict is the bootstrap\'s; an undecided one links to a wider grid', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}lab.html#preset=paper&autorun=1`);
  await done(page);
  const text = () => page.textContent('#fit-sentence');
  const verdict = await coreVerdict(page);
  const patterns = { undecided: /cannot be told apart/, 'too-few-lengths': /With \d lengths the two fits cannot be told apart/, log: /The logarithmic fit is the better one/, power: /The power (fit is the better one|law is the better fit)/ };
  assert.match(await text(), patterns[verdict]);
  assert.doesNotMatch(await text(), /somewhat better|straight line/);
  const link = await page.$('#wider-grid');
  assert.equal(!!link, verdict === 'undecided' || verdict === 'too-few-lengths', 'a wider grid is offered exactly when undecided');
  if (link) {
    const href = await link.getAttribute('href');
    assert.match(href, /Ls=16,32,64,128,256,512,1024/);
    assert.match(href, /autorun=1/);
    await link.click();
    await page.waitForFunction(() => document.body.dataset.run === 'running' || (window.attnxLab.result?.points.length ?? 0) === 7, null, { timeout: 30000 });
    await page.waitForFunction(() => (window.attnxLab.result?.points.length ?? 0) === 7, null, { timeout: 240000 });
    await done(page);
    assert.match(await text(), patterns[await coreVerdict(page)]);
  }
  await page.close();
});
