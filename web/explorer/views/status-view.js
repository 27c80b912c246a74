// attnx explorer: the status line (with a progress bar for anything slower than ~200 ms) and the
// message list (link problems, refusals of the core, notes). All text goes in as textContent.
import { MessageList } from '../../common/messages.js';

// The status line and messages (see the top of this file).
export class StatusView {
  // { text: status <span>, progress: <progress>, list: messages <ul>, host: the element that
  // gets the class 'computing' while busy (default document.body) }
  constructor({ text, progress, list, host = document.body }) {
    this.host = host;
    this.text = text;
    this.progress = progress;
    this.messages = new MessageList(list);
    this.timer = 0;
  }

  // A computation started: after 200 ms show `label` and an indeterminate progress bar.
  busy(label) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.progress.hidden = false;
      this.progress.removeAttribute('value');
      this.text.textContent = label;
    }, 200);
    this.host.classList.add('computing');
  }

  // Progress of the running computation: fraction in [0, 1] (other values are ignored).
  progressed(fraction) {
    if (typeof fraction !== 'number' || !Number.isFinite(fraction)) return;
    this.progress.max = 1;
    this.progress.value = Math.max(0, Math.min(1, fraction));
  }

  // The computation ended: hide the bar, show `label`.
  done(label) {
    clearTimeout(this.timer);
    this.progress.hidden = true;
    this.text.textContent = label;
    this.host.classList.remove('computing');
  }

  // Replaces the messages of one group (e.g. 'hash', 'api', 'link'); kind is the <li>'s class.
  setMessages(group, messages, kind = 'warn') {
    this.messages.set(group, messages, kind);
  }
}
