// Accessibility (issue 28.1): axe-core (WCAG 2.0/2.1 A and AA rules plus its best practices) on
// every page and state a user meets, asserting zero violations. Exclusions, each with its reason,
// are in EXCLUDE below (none today).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { useSite } from './site-harness.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { servedDir } from '../../scripts/chromium.mjs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { reusedPage } from './page-reuse.mjs';

const site = useSite();
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
// Rules left out, with why (selector-level exclusions would go here too).
const EXCLUDE = {};

let host, dir;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'attnx-a11y-'));
  host = await startServer(dir, 0);
});
after(async () => {
  await host?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Runs axe on the page; returns its violations as short lines (rule, impact, first targets).
async function violations(page) {
  await page.addScriptTag({ content: AXE });
  const res = await page.evaluate(async ([tags, exclude]) => {
    const rules = Object.fromEntries(Object.keys(exclude).map((r) => [r, { enabled: false }]));
    return window.axe.run(document, { runOnly: { type: 'tag', values: tags }, rules, resultTypes: ['violations'] });
  }, [TAGS, EXCLUDE]);
  return res.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

async function check(url, { width = 1280, height = 900, colorScheme = 'light', ready, act } = {}) {
  const { context, page } = await reusedPage(site.browser, { viewport: { width, height }, colorScheme, bypassCSP: true });  // to inject axe
  await page.goto(url);
  await page.waitForFunction(ready ?? (() => Number(document.documentElement.dataset.runs || 0) >= 1), null, { timeout: 120000 });
  if (act) await act(page);
  const v = await violations(page);
  await context.close();
  assert.deepEqual(v, [], `axe violations on ${url}`);
}

const STATES = [
  ['explorer', ''],
  ['explorer, paper setting', '#v=2&pattern=random&L=256&k=2&d=1024'],
  ['explorer, dark theme', '#v=2&L=64&d=512&theme=dark'],
  ['explorer, lecture mode', '#story=paper&step=3'],
  ['explorer, presentation mode', '#story=paper&step=2&present=1'],
  ['explorer, lp construction', '#v=2&L=64&construction=lp&d=16&row=5'],
  // Zoomed in (issue 48): axis labels on every heatmap, the view bar with its failing rows.
  ['explorer, zoomed in on a failing row', '#v=2&pattern=window&L=64&w=1&d=512&view=34,50,34,50&row=42'],
];
for (const [name, hash] of STATES) {
  test(`axe: ${name} has no violations`, async () => check(`${site.server.url}${hash}`));
}

test('axe: explorer with an imported model head (the sample) has no violations', async () => check(site.server.url, {
  act: async (page) => {
    await page.click('#head-tools summary');
    await page.click('#head-sample');
    await page.waitForFunction(() => /nonzeros/.test(document.getElementById('head-msg').textContent) && document.documentElement.dataset.busy === '0', null, { timeout: 60000 });
  },
}));

test('axe: explorer on a 390 px phone has no violations', async () => check(site.server.url, { width: 390, height: 844 }));

test('axe: the lab, light and dark, after a run, has no violations', async () => {
  const ready = () => document.querySelector('#table-box table, table') !== null;
  await check(`${site.server.url}lab.html#preset=paper&Ls=16,32&trials=2&autorun=1`, { ready });
  await check(`${site.server.url}lab.html#preset=paper&Ls=16,32&trials=2&autorun=1&theme=dark`, { ready });
});

test('axe: the one-file explorer opened from disk with a model head, and the one-file lab, have no violations', async () => {
  const file = (name) => pathToFileURL(join(servedDir(), name)).href;
  await check(`${file('attnx.html')}#v=2&L=64&d=512`, {
    act: async (page) => {
      await page.click('#head-tools summary');
      await page.setInputFiles('#head-file', fileURLToPath(new URL('../../examples/heads.npy', import.meta.url)));
      await page.waitForFunction(() => /nonzeros/.test(document.getElementById('head-msg').textContent) && document.documentElement.dataset.busy === '0', null, { timeout: 60000 });
    },
  });
  await check(`${file('attnx-lab.html')}#preset=paper&Ls=16,32&trials=2&autorun=1`, { ready: () => document.querySelector('#table-box table, table') !== null });
});

test('axe: <attnx-explorer> and <attnx-lab> inside a host page have no violations', async () => {
  writeFileSync(join(dir, 'host.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<script type="module" src="${site.server.url}embed/attnx.js"></script></head><body><main><h1>A post</h1>
<attnx-explorer id="e" l="32" d="256"></attnx-explorer>
<attnx-lab id="l" ls="16,32" trials="2" autorun></attnx-lab></main></body></html>`);
  await check(`${host.url}host.html`, { ready: () => document.getElementById('e')?.runs >= 1 });
});

// Issue 28.2: the heatmaps' descriptions are the core's numbers, in words.
test('A and M describe themselves with the core\'s numbers (family, L, k, failing rows)', async () => {
  const { load } = await import('../../web/lib/attnx.js');
  const { rowRanges } = await import('../../web/explorer/views/figure-text.js');
  const api = await load({ flavour: 'simd' });
  const r = api.construct({ pattern: 'window', L: 64, w: 1, d: 64 });
  const bad = [];
  for (let i = 0; i < 64; i++) if (!(r.rows.okR[i] === 1 && r.rows.okZ[i] === 1)) bad.push(i);
  const { context, page } = await reusedPage(site.browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(`${site.server.url}#v=2&pattern=window&L=64&w=1&d=64`);
  await page.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1, null, { timeout: 60000 });
  const said = await page.evaluate(() => ['A', 'M'].map((k) => {
    const c = document.querySelector(`#fig-${k} canvas.heat`);
    return document.getElementById(c.getAttribute('aria-describedby')).textContent;
  }));
  assert.equal(said[0], 'Target A: Sliding window |i-j| <= w, 64 tokens, at most 3 nonzeros per row and column.');
  assert.ok(said[1].includes(`except in rows ${rowRanges(bad)} (${bad.length} of 64)`), said[1]);
  await context.close();
});

// Issue 28.4: prefers-reduced-motion takes every transition and animation away (the presentation
// bar's fade here), and forced-colors keeps the verdict's badge outlined in the system's text
// colour and the heatmaps' own colours; both are compared with the same page without them, so the
// test fails if the media rules go.
test('reduced motion: no transition or animation; forced colours: the badge keeps an outline, heatmaps their colours', async () => {
  const { context, page } = await reusedPage(site.browser, { viewport: { width: 1280, height: 720 } });
  await page.goto(`${site.server.url}#story=paper&step=2&present=1`);
  await page.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1, null, { timeout: 120000 });
  const look = () => page.evaluate(() => {
    const cs = (sel) => getComputedStyle(document.querySelector(sel));
    return {
      fade: cs('#present-full').transitionDuration,
      animated: [...document.querySelectorAll('*')].some((e) => getComputedStyle(e).animationDuration !== '0s' || getComputedStyle(e).transitionDuration !== '0s'),
      badgeBorder: cs('.badge').borderTopStyle,
      heatAdjust: cs('.heat').forcedColorAdjust,
    };
  });
  const plain = await look();
  assert.equal(plain.fade, '0.2s', 'the bar fades without the preference');
  assert.equal(plain.badgeBorder, 'none');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const reduced = await look();
  assert.equal(reduced.fade, '0s');
  assert.equal(reduced.animated, false, 'nothing on the page animates or transitions');
  await page.emulateMedia({ reducedMotion: 'no-preference', forcedColors: 'active' });
  const forced = await look();
  assert.equal(forced.badgeBorder, 'solid');
  assert.equal(forced.heatAdjust, 'none');
  await context.close();
});
