// attnx explorer: the story panel (lecture mode): the step's title and text, "Step i of n",
// Previous / Next and End. Used by the page and by <attnx-explorer>. Text only (links in a step's
// text are built as <a> elements from story.js's checked parts; each placeholder is a
// <span data-placeholder="name"> holding its value from story-text.js, "…" while it is on its way;
// the panel's data-pending counts those).
import { el, setIf, setChildren } from '../../common/dom.js';
import { textParts } from '../story.js';
import { fillParts, fillText } from '../story-text.js';

// The story panel (see the top of this file).
export class StoryView {
  // box: the (empty) panel element; siteRoot: URL of the site's root (links in a step's text are
  // relative to it); onStep(n): the visitor asked for step n; onEnd(): the visitor ended the story.
  constructor(box, { siteRoot, onStep, onEnd }) {
    this.box = box;
    this.siteRoot = siteRoot;
    this.shown = null;  // { story, step }
    this.count = el('p', { class: 'story-count', 'data-story-count': '' });
    this.title = el('h2', { class: 'story-title' });
    this.text = el('p', { class: 'story-text' });
    this.prev = el('button', { type: 'button', class: 'story-prev', text: '← Previous', onclick: () => onStep(this.shown.step - 1) });
    this.next = el('button', { type: 'button', class: 'story-next primary', text: 'Next →', onclick: () => onStep(this.shown.step + 1) });
    const end = el('button', { type: 'button', class: 'story-end', text: 'End the story', onclick: () => onEnd() });
    const keys = el('span', { class: 'hint story-keys', text: 'Keys: ← → (or Page Up / Page Down)' });
    box.classList.add('story');
    box.setAttribute('aria-label', 'Story');
    box.replaceChildren(el('div', { class: 'story-body', 'aria-live': 'polite' }, this.count, this.title, this.text),
      el('div', { class: 'story-nav row-buttons' }, this.prev, this.next, end, keys));
    box.hidden = true;
  }

  // Shows step `step` (1-based) of story ({ name, steps }) with its placeholders filled from
  // values (story-text.js), or hides the panel (story null).
  show(story, step, values) {
    if (!story) {
      this.shown = null;
      setIf(this.box, 'hidden', true);
      return;
    }
    if (this.shown && this.shown.story === story && this.shown.step === step) return this.fill(values);
    this.shown = { story, step };
    const s = story.steps[step - 1];
    this.box.dataset.step = String(step);
    this.count.textContent = `Step ${step} of ${story.steps.length}`;
    this.title.textContent = s.title;
    this.shownText = null;
    this.fill(values);
    this.prev.disabled = step <= 1;
    this.next.disabled = step >= story.steps.length;
    setIf(this.box, 'hidden', false);
  }

  // Fills the shown step's placeholders from values again (they arrived or changed).
  fill(values) {
    if (!this.shown) return;
    const text = this.shown.story.steps[this.shown.step - 1].text;
    const nodes = this.textNodes(text, values);
    const key = nodes.map((n) => (typeof n === 'string' ? n : `<${n.textContent}>`)).join('');
    if (key === this.shownText) return;
    this.shownText = key;
    setChildren(this.text, nodes);
    this.box.dataset.pending = String(this.text.querySelectorAll('[data-pending]').length);
  }

  // The nodes of a step's text: strings, placeholders' <span>s and <a> links to the site's pages.
  textNodes(text, values) {
    const { parts } = textParts(text);
    return (parts || [{ text }]).flatMap((p) => (p.href
      ? [el('a', { href: new URL(p.href, this.siteRoot).href, text: fillText(p.text, values) })]
      : fillParts(p.text, values).map((f) => (f.name === undefined ? f.text
        : el('span', { class: 'story-value', 'data-placeholder': f.name, 'data-pending': f.pending ? '' : null, text: f.text })))));
  }
}

const FIELD_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA', 'CANVAS']);

// True when a key event may step a story: not typed into a form field or a heatmap canvas (they
// use the arrows themselves), no modifier (Alt+← is the browser's Back), not handled already.
export function isStoryKey(ev) {
  if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return false;
  if (!['ArrowLeft', 'ArrowRight', 'PageUp', 'PageDown'].includes(ev.key)) return false;
  const t = ev.composedPath ? ev.composedPath()[0] : ev.target;
  return !(t && (FIELD_TAGS.has(t.tagName) || t.isContentEditable));
}

// The step a story key asks for from step n: +1 for ArrowRight / PageDown, -1 otherwise.
export function keyStep(ev, n) {
  return ev.key === 'ArrowRight' || ev.key === 'PageDown' ? n + 1 : n - 1;
}
