// attnx embed: what <attnx-explorer> and <attnx-lab> share as elements: the shadow root built
// once, attributes re-read on every change, and start() called once the element comes within
// NEAR_VIEWPORT of the viewport (nothing computes before). Subclasses define buildShadow(),
// readAttributes() and start(), and set this.started when started.
export const NEAR_VIEWPORT = '200px';

export class LazyElement extends HTMLElement {
  connectedCallback() {
    if (!this.shadowRoot) this.buildShadow();
    this.mutations = new MutationObserver(() => this.readAttributes());
    this.mutations.observe(this, { attributes: true });
    if (this.started) {  // re-attached: attributes may have changed while it was out of the page
      this.readAttributes();
      return;
    }
    this.near = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) this.start();
    }, { rootMargin: NEAR_VIEWPORT });
    this.near.observe(this);
  }

  disconnectedCallback() {
    if (this.mutations) this.mutations.disconnect();
    if (this.near) this.near.disconnect();
  }
}
