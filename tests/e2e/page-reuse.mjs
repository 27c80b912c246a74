// A page for the next test of the same file: a test gets a new document in a page an earlier test
// of the file has finished with, instead of a new browser context. A new context costs a new
// window and a new renderer process, whose WebAssembly is compiled again: about twice the CPU of
// a new document in a page the renderer already has (1.0 against 2.0-2.4 CPU seconds per explorer
// load on the 2-core machine, where the browser suite is CPU-bound: issue 46.2).
//
// reusedPage(browser, contextOptions, initScripts) resolves to { context, page }: context stands
// for the test's own context; its close() hands the page back instead (any other page the test
// opened in it closed, the page's listeners removed, the page's viewport and media emulation back
// to the context's options, and the page at about:blank, which ends the last document, its workers
// and its timers). Pages are kept per browser and per contextOptions and initScripts, which run in
// every document (context.addInitScript). Not for tests that change the context itself (routes,
// init scripts of their own, permissions, cookies, storage): those take a context of their own.
// The kept contexts close with the browser connection (the file's after hook).

// A context's viewport when its options name none (playwright's default).
const DEFAULT_VIEWPORT = { width: 1280, height: 720 };

const pools = new WeakMap();  // browser -> Map(key -> [{ context, page }] free)

/** A kept page or a new one, as described above. */
export async function reusedPage(browser, contextOptions = {}, initScripts = []) {
  const key = JSON.stringify(contextOptions) + initScripts.map(String).join('\n');
  if (!pools.has(browser)) pools.set(browser, new Map());
  const byKey = pools.get(browser);
  if (!byKey.has(key)) byKey.set(key, []);
  const free = byKey.get(key);
  let entry = free.pop();
  if (!entry) {
    const context = await browser.newContext(contextOptions);
    for (const s of initScripts) await context.addInitScript(s);
    const page = await context.newPage();
    entry = { context, page, own: ownListeners(page) };
  }
  let released = null;  // a second close() waits for the first; the page is handed back once
  const release = () => (released ??= handBack(entry, contextOptions, free));
  const context = new Proxy(entry.context, {
    get(target, prop) {
      if (prop === 'close') return release;
      const v = Reflect.get(target, prop);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { context, page: entry.page };
}

// Playwright's own listeners on a new page (it keeps some, e.g. for 'close' and 'crash'): a Set.
function ownListeners(page) {
  return new Set(page.eventNames().flatMap((e) => page.rawListeners(e)));
}

// Removes the listeners a test added to page, with off(): it also ends playwright's subscription
// to the event (removeAllListeners() would drop playwright's own listeners and keep the events
// coming).
function removeTestListeners(page, own) {
  for (const e of page.eventNames()) for (const l of page.rawListeners(e)) if (!own.has(l)) page.off(e, l);
}

// Puts entry's page back into `free` as reusedPage promises; a page that cannot be reset (closed,
// crashed) closes its context instead.
async function handBack(entry, contextOptions, free) {
  const { context, page } = entry;
  try {
    for (const p of context.pages()) if (p !== page) await p.close();
    removeTestListeners(page, entry.own);
    await page.goto('about:blank');
    await page.mouse.move(0, 0);  // where a new page's pointer is
    await page.setViewportSize(contextOptions.viewport ?? DEFAULT_VIEWPORT);
    await page.emulateMedia({
      media: null, colorScheme: contextOptions.colorScheme ?? 'light', reducedMotion: contextOptions.reducedMotion ?? 'no-preference',
      forcedColors: contextOptions.forcedColors ?? 'none',
    });
    free.push(entry);
  } catch {
    await context.close().catch(() => {});
  }
}
