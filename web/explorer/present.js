// attnx explorer: presentation mode, for a lecture hall. The explorer fills the screen (the
// Fullscreen API where the browser allows it, the viewport otherwise; explorer.css lays it out:
// the verdict, A and M as large as the screen allows, the story's step in large type) and only
// the step navigation and a progress indicator ("3 / 6") stay visible. The state's `present`
// field says whether it is on (a link's present=1, the element's present attribute); the button,
// the P key and Esc change it.
//
// Keys while presenting: ← → Space PageUp PageDown step, Home / End jump to the first / last
// step, F toggles fullscreen, Esc leaves. P opens it. Keys are read on keyTarget: the page's
// document, or the element itself, so inside a slide deck they act only while the element has
// focus and the deck keeps its own keys.
const FIELD_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

// The story step a key asks for from step n of `count` steps, or null when it is no step key.
export function presentKeyStep(key, shift, n, count) {
  if (key === 'ArrowRight' || key === 'PageDown' || (key === ' ' && !shift)) return Math.min(count, n + 1);
  if (key === 'ArrowLeft' || key === 'PageUp' || (key === ' ' && shift)) return Math.max(1, n - 1);
  if (key === 'Home') return 1;
  if (key === 'End') return count;
  return null;
}

// Presentation mode (see the top of this file).
export class Presenter {
  // { root: Document | ShadowRoot with the skeleton's ids, box: the explorer's .ax, fullscreenTarget:
  // the element that goes fullscreen (the page's <html>, the custom element), controller,
  // keyTarget: where keys are read }
  constructor({ root, box, fullscreenTarget, controller, keyTarget }) {
    Object.assign(this, { root, box, fullscreenTarget, ctl: controller });
    this.active = false;
    this.leavingFullscreen = false;
    const $ = (id) => root.getElementById(id);
    this.bar = $('present-bar');
    this.count = $('present-count');
    $('present-prev').addEventListener('click', () => this.step((n) => n - 1));
    $('present-next').addEventListener('click', () => this.step((n) => n + 1));
    $('present-full').addEventListener('click', () => this.toggleFullscreen());
    $('present-exit').addEventListener('click', () => this.set(false));
    this.fullBtn = $('present-full');
    keyTarget.addEventListener('keydown', (ev) => this.onKey(ev));
    controller.story.onShow = () => this.ctl.st && this.sync(this.ctl.st);
    document.addEventListener('fullscreenchange', () => this.onFullscreenChange());
  }

  // Turns presentation on or off through the controller's state (the link or the element's
  // events follow). user: called from a gesture, so fullscreen may be asked for.
  set(on, user = true) {
    if (!this.ctl.st || this.ctl.st.present === on) return;
    this.ctl.update({ present: on }, { compute: false });
    if (on && user) this.requestFullscreen();
  }

  toggle() {
    this.set(!(this.ctl.st && this.ctl.st.present));
  }

  // Follows state st (called after every change): shows or leaves the mode, writes "i / n".
  sync(st) {
    const on = !!st.present;
    if (on !== this.active) this.show(on);
    const story = this.ctl.story.view.shown;
    const n = story ? story.story.steps.length : 0;
    this.bar.dataset.story = n ? '1' : '0';
    this.count.textContent = n ? `${story.step} / ${n}` : '';
    // aria-disabled, not disabled: a focused button that is disabled loses the focus (to the
    // page's body; in a deck the keys would then go to the deck) at the first or last step.
    this.root.getElementById('present-prev').setAttribute('aria-disabled', String(!n || story.step <= 1));
    this.root.getElementById('present-next').setAttribute('aria-disabled', String(!n || story.step >= n));
  }

  // Shows or leaves the mode. Entering moves the focus to Next; leaving with the focus in the
  // bar gives it back to where it was (a focused button that is hidden would drop it on the
  // page's body, and inside a deck the element's keys would then go to the deck).
  show(on) {
    this.active = on;
    const inBar = this.bar.contains(this.root.activeElement);
    if (on) this.returnFocus = this.root.activeElement;
    if (on) this.box.dataset.present = '1';
    else delete this.box.dataset.present;
    this.topLayer(on);
    this.bar.hidden = !on;
    document.documentElement.classList.toggle('attnx-presenting', on);
    if (!on && this.isFullscreen()) this.exitFullscreen();
    if (on) this.root.getElementById('present-next').focus({ preventScroll: true });
    else if (inBar && this.returnFocus && this.returnFocus.isConnected) this.returnFocus.focus({ preventScroll: true });
  }

  // Puts the box in the top layer (a manual popover) while presenting, so that the viewport
  // fallback covers the viewport even inside a transformed or clipped container: a deck scaled
  // to the window (reveal.js) would otherwise hold position: fixed to its slide. A browser
  // without popovers keeps position: fixed alone.
  topLayer(on) {
    const box = this.box;
    if (typeof box.showPopover !== 'function' || !box.isConnected) return;
    if (on && !box.matches(':popover-open')) {
      box.popover = 'manual';
      box.showPopover();
    } else if (!on && box.hasAttribute('popover')) {
      if (box.matches(':popover-open')) box.hidePopover();
      box.removeAttribute('popover');
    }
  }

  step(move) {
    const st = this.ctl.st;
    if (st && st.story) this.ctl.story.go(move(st.step));
  }

  onKey(ev) {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const t = ev.composedPath ? ev.composedPath()[0] : ev.target;
    if (t && (FIELD_TAGS.has(t.tagName) || t.isContentEditable)) return;
    const key = ev.key;
    if (!this.active) {
      if (key === 'p' || key === 'P') { ev.preventDefault(); this.set(true); }
      return;
    }
    if (key === 'Escape') { ev.preventDefault(); this.set(false); return; }
    if (key === 'f' || key === 'F') { ev.preventDefault(); this.toggleFullscreen(); return; }
    const st = this.ctl.st, story = this.ctl.story.view.shown;
    if (!story || (key === ' ' && t && t.tagName === 'BUTTON')) return;  // Space on a button presses it
    const next = presentKeyStep(key, ev.shiftKey, st.step, story.story.steps.length);
    if (next === null) return;
    ev.preventDefault();
    this.ctl.story.go(next);
  }

  isFullscreen() {
    const fs = document.fullscreenElement;
    return !!fs && (fs === this.fullscreenTarget || fs === document.documentElement);
  }

  requestFullscreen() {
    const t = this.fullscreenTarget;
    if (!t.requestFullscreen || !document.fullscreenEnabled) return;  // the viewport then
    t.requestFullscreen().catch(() => {});  // refused (no gesture, a frame without allow): the viewport
  }

  exitFullscreen() {
    this.leavingFullscreen = true;
    document.exitFullscreen().catch(() => {});
  }

  toggleFullscreen() {
    if (this.isFullscreen()) this.exitFullscreen();
    else this.requestFullscreen();
  }

  // Fullscreen ended: by F (stay in presentation, in the viewport) or by the browser's own Esc
  // (which the page never sees as a key): leave presentation too.
  onFullscreenChange() {
    this.fullBtn.setAttribute('aria-pressed', String(this.isFullscreen()));
    if (this.isFullscreen()) return;
    if (!this.leavingFullscreen && this.active) this.set(false);
    this.leavingFullscreen = false;
  }
}
