// attnx embed: what every element on a page shares: one worker pool (one WebAssembly module load
// per worker) and the core's schema; and how a shadow root gets its styles. The workers are the
// site's own scripts, found relative to this module (dist/embed/attnx.js -> dist/lib/worker.js),
// so the page that embeds may be on another origin (the site must then send CORS headers; see
// startModuleWorker).
import { createPool } from '../lib/pool.js';

export const WORKER_URL = new URL('../lib/worker.js', import.meta.url);
export const RENDER_WORKER_URL = new URL('../explorer/render-worker.js', import.meta.url);
export const STORIES_URL = new URL('../explorer/stories/', import.meta.url);  // the built-in stories

let shared = null;

/**
 * The page's shared { pool, schema }, started by the first element that needs it. A failed load
 * rejects every caller with the reason and is retried by the next call.
 */
export function sharedRuntime() {
  if (!shared) {
    shared = (async () => {
      const pool = await createPool({ workerUrl: WORKER_URL });
      const schema = await pool.run('schema', {});
      return { pool, schema };
    })();
    shared.catch(() => { shared = null; });
  }
  return shared;
}

/** Appends a <style> holding each of `texts`, in order, to `root` (an element's new shadow root). */
export function addStyles(root, texts) {
  for (const text of texts) root.append(Object.assign(document.createElement('style'), { textContent: text }));
}
