// attnx web: tiny DOM helpers (text only: user text never goes through innerHTML).

// Creates an HTML element. attrs: 'class' -> className, 'text' -> textContent, 'onX' -> event
// listener X, other keys -> attributes (true -> empty attribute; undefined/null/false -> omitted).
// children (nested arrays allowed; null/undefined skipped) are appended. Returns the element.
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// Sets el[prop] = value only when it differs (a write of the same text or value still
// invalidates layout; pages sync their controls on every change, e.g. during a slider drag).
export function setIf(el, prop, value) {
  if (el[prop] !== value) el[prop] = value;
}

// Replaces the children of `parent` by `nodes` (any iterable of nodes or strings, of any length:
// appended to a fragment, never spread into a call). Returns parent.
export function setChildren(parent, nodes) {
  const frag = parent.ownerDocument.createDocumentFragment();
  for (const n of nodes) frag.append(n);
  parent.replaceChildren(frag);
  return parent;
}

const SVGNS = 'http://www.w3.org/2000/svg';

// Creates an SVG element the same way as el() (no event attributes). Returns the element.
export function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === 'class') e.setAttribute('class', v);
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

/**
 * Like perFrame, and at least minMs after fn's previous run (a view that costs tens of
 * milliseconds, redrawn as results stream in, would otherwise take the main thread every frame).
 * minMs: a number, or a function read at each schedule() (an interval that depends on the state).
 * Returns { schedule(), ran() }: ran() tells it that fn was just run directly (a pending run is
 * dropped and the interval counts from now). now: the clock (tests).
 */
export function atMostEvery(fn, minMs, now = () => performance.now()) {
  let last = -Infinity, timer = 0, frame = 0;
  const run = () => {
    frame = 0;
    last = now();
    fn();
  };
  const ran = () => {
    clearTimeout(timer);
    if (frame) cancelAnimationFrame(frame);
    timer = 0;
    frame = 0;
    last = now();
  };
  const schedule = () => {
    if (timer || frame) return;
    const wait = last + (typeof minMs === 'function' ? minMs() : minMs) - now();
    if (wait <= 0) frame = requestAnimationFrame(run);
    else timer = setTimeout(() => { timer = 0; frame = requestAnimationFrame(run); }, wait);
  };
  return { schedule, ran };
}

// A function that runs fn in the next animation frame, once however often it is called before.
export function perFrame(fn) {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fn();
    });
  };
}
