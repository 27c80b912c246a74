// attnx web: the page's message list (link problems, refusals of the core, notes), kept in named
// groups so one source can replace its own messages. Duplicates are shown once and the list is
// capped (a link with thousands of bad keys shows ~20 lines and "+N more"). Text only.

// The lines to show for groups (Map group -> [{ text, kind }], in insertion order): unique texts in
// order, at most cap of them. Returns { items: [{ text, kind }], more } where more counts the
// unique texts left out. DOM-free; never throws.
export function visibleMessages(groups, cap = 20) {
  const seen = new Set();
  const items = [];
  let more = 0;
  for (const list of groups.values()) {
    for (const m of list) {
      if (seen.has(m.text)) continue;
      seen.add(m.text);
      if (items.length < cap) items.push(m);
      else more++;
    }
  }
  return { items, more };
}

// The message list (see the top of this file).
export class MessageList {
  // ul: the <ul> to render into (its children are replaced on every change); cap: most lines.
  constructor(ul, { cap = 20 } = {}) {
    this.ul = ul;
    this.cap = cap;
    this.groups = new Map();
  }

  // Replaces the messages of one group (e.g. 'hash', 'api', 'link') with `messages` (strings, any
  // iterable) of the given kind ('error' | 'warn' | ...: the <li>'s class), and re-renders.
  set(group, messages, kind = 'warn') {
    const list = [];
    for (const text of messages) list.push({ text: String(text), kind });
    if (list.length) this.groups.set(group, list);
    else this.groups.delete(group);
    this.render();
  }

  // Removes one group's messages (all groups when group is omitted) and re-renders.
  clear(group) {
    if (group === undefined) this.groups.clear();
    else this.groups.delete(group);
    this.render();
  }

  // The texts currently shown, in order (for tests and status lines).
  texts() {
    return visibleMessages(this.groups, this.cap).items.map((m) => m.text);
  }

  // Writes the visible messages into the <ul> (one <li class="kind"> each, plus "+N more").
  render() {
    const doc = this.ul.ownerDocument;
    const { items, more } = visibleMessages(this.groups, this.cap);
    const frag = doc.createDocumentFragment();
    const line = (text, cls) => {
      const li = doc.createElement('li');
      li.className = cls;
      li.textContent = text;
      frag.append(li);
    };
    for (const m of items) line(m.text, m.kind);
    if (more > 0) line(`+${more} more`, 'more');
    this.ul.replaceChildren(frag);
  }
}
