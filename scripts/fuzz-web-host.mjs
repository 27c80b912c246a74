// attnx: the host page of the element fuzz surfaces (scripts/fuzz-web-elements.mjs and
// scripts/fuzz-web-stories.mjs): a new browser context that serves only the site's origin (other
// origins aborted) plus the fuzzer's own files, and records page errors, console errors, crashes
// and unhandled rejections (window.__rej) as the other surfaces do.

// Opens host (a path under baseUrl) in a new context of the given viewport. serve(url) answers a
// request with route.fulfill options ({ contentType, body }), { stall: true } (never answered: a
// server that does not end its response) or null (the site's own file).
// Problems go to events. init, when given, runs in the page before its scripts (addInitScript:
// a function, or [function, argument]).
// Returns { context, page }.
export async function openFuzzHost(browser, baseUrl, { host, viewport, serve, events, init = null }) {
  const context = await browser.newContext({ viewport });
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (!url.startsWith(baseUrl)) return route.abort();
    const answer = serve(url);
    if (answer && answer.stall) return undefined;
    return answer ? route.fulfill(answer) : route.continue();
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => events.push(`pageerror: ${e.message.slice(0, 300)}`));
  page.on('console', (m) => { if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) events.push(`console error: ${m.text().slice(0, 300)}`); });
  page.on('crash', () => events.push('crash: the page crashed'));
  await page.addInitScript(() => {
    window.__rej = [];
    window.addEventListener('unhandledrejection', (e) => window.__rej.push(String((e.reason && e.reason.message) || e.reason).slice(0, 200)));
  });
  if (init) await (Array.isArray(init) ? page.addInitScript(init[0], init[1]) : page.addInitScript(init));
  await page.goto(`${baseUrl}${host}`);
  return { context, page };
}

/**
 * Resolves as `work` does, or rejects with Error(`hang: ${what}`) when it has not settled after
 * `ms`. The guard's timer is cleared once work settles: a finished run leaves no pending timer
 * (uncleared, a case's guard kept the fuzzer's process alive for up to twice the case timeout
 * after its last case: about 4 minutes in npm test).
 */
export function withinGuard(work, ms, what) {
  let timer;
  const guard = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`hang: ${what}`)), ms); });
  return Promise.race([work, guard]).finally(() => clearTimeout(timer));
}
