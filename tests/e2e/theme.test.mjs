// The pages' theme setting: theme=light keeps an embed light in a reader's dark mode, theme=dark
// is dark in a light one, and auto (no setting) follows the system; the lab's plots follow the
// page's scheme; the link keeps the setting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './site-harness.mjs';
import { urlHash } from '../../scripts/explorer-url.mjs';
import { reusedPage } from './page-reuse.mjs';

const LIGHT_BG = 'rgb(246, 247, 249)', DARK_BG = 'rgb(20, 23, 28)';
const site = useSite();

async function bodyBackground(path, colorScheme, ready) {
  const { context, page } = await reusedPage(site.browser, { colorScheme });
  await page.goto(site.server.url + path);
  await page.waitForFunction(ready, null, { timeout: 60000 });
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  return { bg, hash: await urlHash(page), page, context };
}

const explorerReady = () => Number(document.documentElement.dataset.runs || 0) >= 1;
const labReady = () => window.attnxLab && document.body.dataset.run !== 'loading';

test('explorer: theme=light in a dark system, theme=dark in a light one, auto follows the system', async () => {
  for (const [hash, scheme, want] of [['&theme=light&embed=1', 'dark', LIGHT_BG], ['&theme=dark', 'light', DARK_BG], ['', 'dark', DARK_BG], ['', 'light', LIGHT_BG]]) {
    const r = await bodyBackground(`#v=1&L=32&d=64${hash}`, scheme, explorerReady);
    assert.equal(r.bg, want, `${hash || 'no theme'} in a ${scheme} system`);
    assert.match(r.hash, /^#v=3&/, 'the page wrote its link');
    if (hash.includes('theme=')) assert.match(r.hash, /theme=(light|dark)/, 'the link keeps the theme');
    else assert.doesNotMatch(r.hash, /theme=/, 'auto is not written');
    await r.context.close();
  }
});

test('lab: theme=dark in a light system darkens the page and the plots', async () => {
  const r = await bodyBackground('lab.html#theme=dark&embed=1', 'light', labReady);
  assert.equal(r.bg, DARK_BG);
  const plotBg = await r.page.evaluate(() => document.querySelector('#plot-dl svg rect')?.getAttribute('fill'));
  const light = await bodyBackground('lab.html#theme=light', 'dark', labReady);
  const lightPlotBg = await light.page.evaluate(() => document.querySelector('#plot-dl svg rect')?.getAttribute('fill'));
  assert.equal(light.bg, LIGHT_BG);
  assert.ok(plotBg && lightPlotBg && plotBg !== lightPlotBg, `the plot background follows the theme (${plotBg} vs ${lightPlotBg})`);
  await r.context.close();
  await light.context.close();
});
