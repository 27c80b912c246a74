// attnx web: a page inside an <iframe> tells its host how tall its content is, so the host can
// size the frame to it (no inner scrollbar). The message, posted to window.parent with target
// origin '*' (a height is not sensitive), is { type: 'attnx-height', page, height } with page
// 'explorer' or 'lab' and height in whole CSS pixels; it is posted once at start and again only
// when the height changed. The README and docs/embedding.md have the host's side.

// The `type` of every height message.
export const HEIGHT_MESSAGE = 'attnx-height';

// Contract: DOM-free. Returns report(height): rounds height up to whole CSS pixels and, when the
// result is a finite number > 0 that differs from the last height posted, calls
// post({ type: HEIGHT_MESSAGE, page, height }). report returns true when it posted.
export function heightReporter(page, post) {
  let last = null;
  return (height) => {
    const h = Math.ceil(Number(height));
    if (!Number.isFinite(h) || h <= 0 || h === last) return false;
    last = h;
    post({ type: HEIGHT_MESSAGE, page, height: h });
    return true;
  };
}

// Contract: the content height of document `doc` in CSS pixels (not rounded): the root element's
// box (with no height set on <html> that is its content, not the viewport, so it can shrink when
// the frame is taller than the content), or the bottom of <body> plus its bottom margin when that
// is lower. Never throws for a document with a body.
export function contentHeight(doc = document) {
  const root = doc.documentElement.getBoundingClientRect();
  const body = doc.body.getBoundingClientRect();
  const margin = parseFloat(doc.defaultView.getComputedStyle(doc.body).marginBottom) || 0;
  return Math.max(root.height, body.bottom - root.top + margin);
}

// Contract: when `win` is inside a frame (win.parent !== win), posts the content height of
// win.document to win.parent now and after every change of the size of <html> or <body>
// (ResizeObserver), only when the height changed. Returns a function that stops watching; outside
// a frame, or without ResizeObserver, it does nothing and returns a no-op.
export function watchHeight(page, win = window) {
  if (win.parent === win || typeof win.ResizeObserver !== 'function') return () => {};
  const report = heightReporter(page, (msg) => win.parent.postMessage(msg, '*'));
  const doc = win.document;
  const observer = new win.ResizeObserver(() => report(contentHeight(doc)));
  observer.observe(doc.documentElement);
  observer.observe(doc.body);
  report(contentHeight(doc));
  return () => observer.disconnect();
}
