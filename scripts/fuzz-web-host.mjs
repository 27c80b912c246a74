// attnx: the host page of the element fuzz surfaces (scripts/fuzz-web-elements.mjs and
// scripts/fuzz-web-stories.mjs): a browser context that serves only the site's origin (other
// origins aborted) plus the fuzzer's own files, and records page errors, console errors, crashes
// and unhandled rejections (window.__rej) as the other surfaces do.

// One browser context and one page for every case of a surface: each case gets a new document of
// host (a path under baseUrl) in that page. A new context per case cost about twice the CPU of a
// new document in the same page (a new window and renderer each time): the fuzz run was the
// browser suite's longest file (issue 46.2). A case that failed (a hang, a crash, an error) closes
// the context, and the next case starts a new one.
// Per case, open(serve, events): serve(url) answers a request with route.fulfill options
// ({ contentType, body }), { stall: true } (never answered: a server that does not end its
// response) or null (the site's own file); other origins are aborted. Problems go to events.
// init, when given, runs in every document before its scripts (addInitScript: a function, or
// [function, argument]).
export class FuzzHost {
  constructor(browser, baseUrl, { host, viewport, init = null }) {
    Object.assign(this, { browser, baseUrl, host, viewport, init, context: null, page: null, serve: () => null, events: [] });
  }

  // A new document of the host page for a case; resolves to { page }.
  async open(serve, events) {
    if (!this.page) await this.start();
    else await this.page.goto('about:blank');  // the last case's document ends before this one's begins
    this.serve = serve;
    this.events = events;  // from here on, what the page reports is this case's
    await this.page.goto(`${this.baseUrl}${this.host}`);
    return { page: this.page };
  }

  async start() {
    const context = await this.browser.newContext({ viewport: this.viewport });
    this.context = context;
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (!url.startsWith(this.baseUrl)) return route.abort();
      const answer = this.serve(url);
      if (answer && answer.stall) return undefined;
      return answer ? route.fulfill(answer) : route.continue();
    });
    const page = await context.newPage();
    page.on('pageerror', (e) => this.events.push(`pageerror: ${e.message.slice(0, 300)}`));
    page.on('console', (m) => { if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) this.events.push(`console error: ${m.text().slice(0, 300)}`); });
    page.on('crash', () => this.events.push('crash: the page crashed'));
    await page.addInitScript(() => {
      window.__rej = [];
      window.addEventListener('unhandledrejection', (e) => window.__rej.push(String((e.reason && e.reason.message) || e.reason).slice(0, 200)));
    });
    if (this.init) await (Array.isArray(this.init) ? page.addInitScript(this.init[0], this.init[1]) : page.addInitScript(this.init));
    this.page = page;
  }

  // Closes the context (after a failed case, and at the end); the next open() starts a new one.
  async close() {
    const context = this.context;
    this.context = null;
    this.page = null;
    if (context) await context.close().catch(() => {});
  }
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
