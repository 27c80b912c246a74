// attnx lab: the one owner of the page's settings. The store holds the state (a plain object of
// the state table's fields), tells subscribers about every change, and is mirrored to the URL hash
// by mirrorToHash (the only writer of location.hash's state). DOM-free apart from the `win` handed
// to mirrorToHash.

// The settings store (see the top of this file).
export class Store {
  // initial: the starting state (copied).
  constructor(initial) {
    this.state = { ...initial };
    this.subs = new Set();
  }

  // A copy of the current state.
  get() {
    return { ...this.state };
  }

  // Merges `patch` into the state. When a value changed, calls every subscriber with
  // (state copy, { changed: [names], ...meta }) in subscription order. meta.source names the
  // origin ('controls', 'link', 'preset', ...). Returns the names that changed.
  set(patch, meta = {}) {
    const changed = Object.keys(patch).filter((k) => !Object.is(this.state[k], patch[k]));
    if (!changed.length) return changed;
    this.state = { ...this.state, ...patch };
    const st = this.get();
    for (const fn of [...this.subs]) fn(st, { ...meta, changed });
    return changed;
  }

  // Calls fn(state, meta) after every change. Returns a function that unsubscribes.
  subscribe(fn) {
    this.subs.add(fn);
    return () => this.subs.delete(fn);
  }
}

// Keeps the URL hash equal to write(state) after every change that did not come from the hash
// itself (meta.source 'link'); history.replaceState, so no hashchange fires and no history entry
// is added. write(state) returns the hash, or null to leave the URL as it is (a state the page
// cannot link to yet). win: { location, history } (the window). Returns the unsubscribe function.
export function mirrorToHash(store, write, win) {
  return store.subscribe((st, meta) => {
    if (meta.source === 'link') return;
    const { pathname, search, hash } = win.location;
    const h = write(st);
    if (h !== null && h !== hash) win.history.replaceState(null, '', `${pathname}${search}${h}`);
  });
}
