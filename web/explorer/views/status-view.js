// attnx web: the status line (with a progress bar for anything slower than ~200 ms) and the
// message list (hash errors, API refusals). All text goes in as textContent.
export class StatusView {
  constructor({ text, progress, list }) {
    this.text = text;
    this.progress = progress;
    this.list = list;
    this.timer = 0;
    this.groups = new Map();  // group -> [{ text, kind }]
  }

  busy(label) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.progress.hidden = false;
      this.progress.removeAttribute('value');
      this.text.textContent = label;
    }, 200);
    document.body.classList.add('computing');
  }

  progressed(fraction, label) {
    if (typeof fraction === 'number' && Number.isFinite(fraction)) {
      this.progress.max = 1;
      this.progress.value = Math.max(0, Math.min(1, fraction));
    }
    if (label && !this.progress.hidden) this.text.textContent = label;
  }

  done(label) {
    clearTimeout(this.timer);
    this.progress.hidden = true;
    this.text.textContent = label;
    document.body.classList.remove('computing');
  }

  // Replaces the messages of one group (e.g. 'hash', 'api', 'link').
  setMessages(group, messages, kind = 'warn') {
    this.groups.set(group, messages.map((t) => ({ text: t, kind })));
    const items = [];
    for (const ms of this.groups.values()) {
      for (const m of ms) {
        const li = document.createElement('li');
        li.className = m.kind;
        li.textContent = m.text;
        items.push(li);
      }
    }
    this.list.replaceChildren(...items);
  }
}
