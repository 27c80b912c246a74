// Dev probe: opens a page of dist/ at a hash and prints console errors and a screenshot path.
import { launchChromium, servedDir } from './chromium.mjs';
import { startServer } from './serve.mjs';
const [, , path = 'index.html', hash = '', w = '1280', h = '720', shot = '/tmp/probe.png'] = process.argv;
const server = await startServer(servedDir(), 0);
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: +w, height: +h } });
page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') console.log('console.' + m.type(), m.text()); });
page.on('pageerror', (e) => console.log('pageerror', e.stack || e.message));
await page.goto(`${server.url}${path}${hash}`);
await page.waitForTimeout(+(process.env.WAIT || 3000));
await page.screenshot({ path: shot });
console.log('shot', shot);
await browser.close(); await server.close();
