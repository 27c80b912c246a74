// attnx explorer: stories (lecture mode). DOM-free: the built-in stories, their format, loading,
// validation against the explorer's state table, and stepping.
//
// A story is a JSON file in web/explorer/stories/: a list of steps, shown one at a time in the
// story panel above the figures.
//
//   [
//     { "title": "The target",
//       "text": "Two to four sentences. [The scaling lab](lab.html#preset=paper&autorun=1) …",
//       "state": { "pattern": "window", "L": 64, "w": 1, "d": 2048 } },
//     …
//   ]
//
//   title  plain text, at most 120 characters.
//   text   plain text, at most 1000 characters; [words](page) links the words to one of the site's
//          own pages: lab.html or index.html, optionally with a #hash (nothing else is linked).
//          Numbers the text talks about are placeholders, {rho}, {zeta}, {failing_rows}, {dmin}…
//          (story-text.js lists them all), filled in from the step's computed result; an unknown
//          name, or a brace that is no placeholder, is an error.
//   state  settings of the explorer, named and valued as in its links (the state table: pattern,
//          L, k, w, r, block, stride, globals, randoms, weights, wMin, decay, eps, tau, delta, d,
//          seed, scale, ref, row): JSON numbers for numbers, strings for choices. Each value must
//          be valid as a link's would be (ranges may depend on the step's own pattern and L). A
//          drawn pattern (custom) and the page's own fields (help, embed, theme, present, story,
//          step) cannot be set. A step shows the table's current defaults with its state on top, so it looks the
//          same however it is reached.
//
// At most MAX_STEPS steps. To add a story, put NAME.json next to paper.json and add NAME to
// STORIES below: links and attributes may only name built-in stories (a link never makes the page
// load an arbitrary URL). <attnx-explorer> may also read a lecturer's own file (story-source.js).
import { parseField } from '../common/hashstate.js';
import { placeholderErrors } from './story-text.js';

// Built-in stories: name -> { file (in the stories folder), label (for the page's button) }.
export const STORIES = {
  paper: { file: 'paper.json', label: 'The paper, step by step' },
  constructions: { file: 'constructions.json', label: 'Three ways to choose X' },
  frontier: { file: 'frontier.json', label: 'How far from optimal is the paper?' },
};
export const STORY_NAMES = Object.keys(STORIES);
export const MAX_STEPS = 50;
export const MAX_TITLE = 120;
export const MAX_TEXT = 1000;

// Fields a step never sets (a drawn pattern's text, the page's own fields, the story's): stepping
// keeps them, so a step never leaves presentation mode or changes the theme.
// A step never names an imported head (the visitor's file is not part of a story).
const NOT_SCENE = new Set(['cp', 'cw', 'help', 'embed', 'theme', 'present', 'story', 'step', 'layer', 'head', 'rule', 'softmax']);
// A link inside a step's text: [words](lab.html#…) or [words](index.html#…).
const LINK = /\[([^\]\n]{1,200})\]\(([^)\s]{1,500})\)/g;
const SAFE_HREF = /^(lab|index)\.html(#[A-Za-z0-9_=&,.%+-]*)?$/;

// The table's fields a step may set (every field but NOT_SCENE), in table order.
export function sceneFields(table) {
  return Object.keys(table).filter((k) => !NOT_SCENE.has(k));
}

// The table's current defaults of every scene field, with patch on top (a new object).
export function sceneState(table, patch = {}) {
  const out = {};
  for (const k of sceneFields(table)) out[k] = table[k].def;
  return { ...out, ...patch };
}

// A step's text as parts [{ text }, { text, href }] (href: a page of the site, relative to its
// root). Returns { parts } or { error } naming the bad link. Never throws.
export function textParts(text) {
  const parts = [];
  let last = 0;
  for (const m of String(text).matchAll(LINK)) {
    if (!SAFE_HREF.test(m[2])) return { error: `link "${m[2].slice(0, 60)}" is not one of the site's pages (lab.html or index.html, with an optional #hash)` };
    if (m.index > last) parts.push({ text: text.slice(last, m.index) });
    parts.push({ text: m[1], href: m[2] });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return { parts };
}

// The value of one step setting as a link's text, or null when its JSON type does not fit.
function rawOf(f, v) {
  if (f.type === 'int' || f.type === 'number') return typeof v === 'number' ? String(v) : null;
  if (f.type === 'bool') return typeof v === 'boolean' ? (v ? '1' : '0') : null;
  return typeof v === 'string' ? v : null;
}

// Problems of one step's state (messages start with the field). Fields are checked in table order
// against the step's own state, so k <= L and row < L see the step's values.
function stateErrors(table, state) {
  if (!state || typeof state !== 'object' || Array.isArray(state)) return ['state must be an object of settings'];
  const errors = [];
  for (const k of Object.keys(state)) {
    if (!Object.hasOwn(table, k)) errors.push(`"${k.slice(0, 40)}" is not a setting of the explorer`);
    else if (NOT_SCENE.has(k)) errors.push(`${k} cannot be set by a story (only ${sceneFields(table).join(', ')})`);
  }
  const st = sceneState(table);
  for (const k of sceneFields(table)) {
    if (!Object.hasOwn(state, k)) continue;
    const raw = rawOf(table[k], state[k]);
    const want = { int: 'a JSON number', number: 'a JSON number', bool: 'true or false' }[table[k].type] ?? 'a JSON string';
    const r = raw === null ? { error: `${k} must be ${want} (got ${String(JSON.stringify(state[k])).slice(0, 40)})` } : parseField(k, table[k], raw, st);
    if (r.error) errors.push(r.error);
    else st[k] = r.value;
  }
  if (table.pattern.handDrawn.includes(st.pattern)) errors.push(`pattern "${st.pattern}" cannot be set by a story (a drawn pattern is not part of it)`);
  return errors;
}

// Problems of step i (0-based) of a story: title, text (and its links), state.
function stepErrors(table, s) {
  if (!s || typeof s !== 'object' || Array.isArray(s)) return ['a step must be an object { title, text, state }'];
  const errors = [];
  if (typeof s.title !== 'string' || !s.title.trim() || s.title.length > MAX_TITLE) errors.push(`title must be text of 1 to ${MAX_TITLE} characters`);
  else if (/[{}]/.test(s.title)) errors.push('title must be plain text without braces (placeholders such as {rho} go in the text)');
  if (typeof s.text !== 'string' || !s.text.trim() || s.text.length > MAX_TEXT) errors.push(`text must be text of 1 to ${MAX_TEXT} characters`);
  else {
    const t = textParts(s.text);
    if (t.error) errors.push(`text: ${t.error}`);
    for (const e of placeholderErrors(s.text)) errors.push(`text: ${e}`);
  }
  for (const k of Object.keys(s)) if (!['title', 'text', 'state'].includes(k)) errors.push(`"${k.slice(0, 40)}" is not part of a step (title, text, state)`);
  return errors.concat(stateErrors(table, s.state ?? {}));
}

// Validates a story's parsed JSON (data) against the explorer's state table. Returns
// { story: { name, steps: [{ title, text, state }] } } or { errors: [message] }, each message
// naming the story (where: how messages name it, default story "name"), the step (1-based, with
// its title) and the field. Never throws.
export function parseStory(name, data, table, where = `story "${name}"`) {
  if (!Array.isArray(data)) return { errors: [`${where} must be a JSON list of steps`] };
  if (data.length === 0 || data.length > MAX_STEPS) return { errors: [`${where} must have 1 to ${MAX_STEPS} steps (it has ${data.length})`] };
  const errors = [];
  data.forEach((s, i) => {
    const title = s && typeof s.title === 'string' ? ` ("${s.title.slice(0, 40)}")` : '';
    for (const e of stepErrors(table, s)) errors.push(`${where}, step ${i + 1}${title}: ${e}`);
  });
  if (errors.length) return { errors };
  return { story: { name, steps: data.map((s) => ({ title: s.title, text: s.text, state: { ...(s.state ?? {}) } })) } };
}

// Step n clamped to the story's steps 1..length.
export function clampStep(story, n) {
  const i = Number.isFinite(n) ? Math.trunc(n) : 1;
  return Math.min(story.steps.length, Math.max(1, i));
}

// The state patch that shows step n (clamped) of the story: the scene defaults, the step's
// settings, story and step.
export function stepPatch(table, story, n) {
  const step = clampStep(story, n);
  return { ...sceneState(table, story.steps[step - 1].state), story: story.name, step };
}

// A state read from a link or attributes that names a story (st.story, st.step), with the step's
// settings for every field the link does not give itself (given: a Set of field names; a field
// whose value the link gave but was refused is not given, so the step's value stands). Returns
// { state, errors } (errors: a step beyond the story's end, which shows its last step).
export function readStep(table, story, st, given) {
  const errors = [];
  const step = clampStep(story, st.step);
  if (step !== st.step) errors.push(`step ${st.step}: the story "${story.name}" has ${story.steps.length} steps; step ${step} is shown`);
  const patch = stepPatch(table, story, step);
  const state = { ...st };
  for (const [k, v] of Object.entries(patch)) if (!given.has(k) || k === 'step') state[k] = v;
  return { state, errors };
}

// Loads and validates built-in story `name` from the folder base (a URL). Resolves
// { story } or { errors }; never rejects. fetchImpl: fetch (tests may pass another).
export async function loadStory(name, table, { base, fetchImpl = globalThis.fetch } = {}) {
  if (!Object.hasOwn(STORIES, name)) return { errors: [`story must be one of ${STORY_NAMES.join(', ')} (got "${String(name).slice(0, 40)}")`] };
  let data;
  try {
    const res = await fetchImpl(new URL(STORIES[name].file, base));
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    data = await res.json();
  } catch (e) {
    return { errors: [`story "${name}" could not be loaded: ${e && e.message ? e.message : e}`] };
  }
  return parseStory(name, data, table);
}
