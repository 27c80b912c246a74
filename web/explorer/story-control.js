// attnx explorer: lecture mode's controller, shared by the page and <attnx-explorer>: loads the
// built-in stories (once each) or the element's own (useOwn), applies a step's settings through
// the host's normal update path, shows the story panel (views/story-view.js) with its
// placeholders filled from the state's result (story-values.js) and steps with the keyboard.
import { loadStory, readStep, stepPatch, clampStep } from './story.js';
import { StoryView, isStoryKey, keyStep } from './views/story-view.js';
import { StoryValues } from './story-values.js';

// The stories folder (web/explorer/stories/) seen from this module; a bundle passes its own.
export const STORIES_URL = new URL('./stories/', import.meta.url);

// Lecture mode (see the top of this file).
export class StoryControl {
  // { table, box: the story panel's element, base: URL of the stories folder (default
  // STORIES_URL), getState(), update(patch): the host's update path, report(messages): shows
  // the story's problems (an empty list clears them); for the placeholders (story-values.js):
  // pool, schema, getCustom(), askPrecision() }
  constructor({ table, box, base = STORIES_URL, getState, update, report, pool, schema, getCustom, askPrecision }) {
    Object.assign(this, { table, base, getState, update, report });
    this.loaded = new Map();  // name -> Promise<{ story } | { errors }>
    this.pending = new Set(); // own stories still loading (their step waits, the figures do not)
    this.reads = 0;
    this.stepNoted = false;  // the story's messages are about the step a link asked for
    this.view = new StoryView(box, {
      siteRoot: new URL('../../', base),
      onStep: (n) => this.go(n),
      onEnd: () => this.update({ story: '', step: 1 }),
    });
    this.values = new StoryValues({
      pool, schema, table, getState, getCustom, askPrecision,
      changed: () => this.view.fill(this.values.values),
    });
  }

  // The story `name`, loaded and validated once: resolves { story } or { errors }.
  load(name) {
    if (!this.loaded.has(name)) this.loaded.set(name, loadStory(name, this.table, { base: this.base }));
    return this.loaded.get(name);
  }

  // The host's own story under `name` (a name no built-in story has): `loading` is { story } or
  // { errors }, or a promise of one (a story file, story-source.js: it may be slow, or never end,
  // until its timeout). Replaces an own story of that name given before.
  useOwn(name, loading) {
    const p = Promise.resolve(loading).then((r) => (r.story ? { story: { ...r.story, name } } : r));
    this.loaded.set(name, p);
    if (!(loading instanceof Promise)) return;
    this.pending.add(name);
    p.then(() => { if (this.loaded.get(name) === p) this.pending.delete(name); });
  }

  // A state read from a link or attributes (given: the Set of fields whose values they set,
  // hashstate.js parseHash's read). Without a story,
  // clear the story's messages of an earlier read and apply(st) at once; with one, once it is
  // loaded, apply(the state with the step's settings under the given ones); an own story still
  // loading (a story file) does not hold the figures: the state without it is applied at once.
  // A story that cannot be loaded is reported and turned off. Only the newest read is applied.
  read(st, given, apply) {
    const n = ++this.reads;
    if (!st.story) {
      this.stepNoted = false;
      this.report([]);
      apply(st);
      return;
    }
    if (this.pending.has(st.story)) apply({ ...st, story: '', step: 1 });
    this.load(st.story).then((r) => {
      if (n !== this.reads) return;
      if (r.errors) {
        this.stepNoted = false;
        this.report(r.errors);
        apply({ ...st, story: '', step: 1 });
        return;
      }
      const { state, errors } = readStep(this.table, r.story, st, given);
      this.report(errors);
      this.stepNoted = errors.length > 0;
      apply(state);
    });
  }

  // Starts story `name` at step 1 (through update).
  async start(name) {
    const r = await this.load(name);
    this.report(r.errors || []);
    if (r.story) this.update(stepPatch(this.table, r.story, 1));
  }

  // Clears the messages on the step a link asked for (e.g. "step 7: … step 6 is shown"), once
  // another step is shown or the story has ended; a story's load errors stay.
  clearStepNote() {
    if (!this.stepNoted) return;
    this.stepNoted = false;
    this.report([]);
  }

  // Shows step n (clamped) of the current story, through update (see clearStepNote).
  async go(n) {
    const st = this.getState();
    if (!st || !st.story) return;
    const r = await this.load(st.story);
    if (r.story && clampStep(r.story, n) !== st.step) {
      this.clearStepNote();
      this.update(stepPatch(this.table, r.story, n));
    }
  }

  // Shows the panel for state st (hidden without a story or until it is loaded); then calls
  // this.onShow() if set (presentation mode's progress indicator follows the panel).
  show(st) {
    if (!st.story) {
      this.clearStepNote();
      this.view.show(null);
      this.values.showing('');
      if (this.onShow) this.onShow();
      return;
    }
    this.load(st.story).then((r) => {
      const now = this.getState();
      if (now && now.story === st.story) {
        const step = r.story ? clampStep(r.story, now.step) : 1;
        this.view.show(r.story || null, step, this.values.values);
        this.values.showing(r.story ? r.story.steps[step - 1].text : '');
      }
      if (this.onShow) this.onShow();
    });
  }

  // Arrow keys and Page Up / Page Down on target step the story while one is shown (and while
  // enabled() says so: presentation mode has keys of its own).
  attachKeys(target, enabled = () => true) {
    target.addEventListener('keydown', (ev) => {
      const st = this.getState();
      if (!st || !st.story || !this.view.shown || !isStoryKey(ev) || !enabled()) return;
      ev.preventDefault();
      this.go(keyStep(ev, st.step));
    });
  }
}
