// attnx explorer: "Copy link" (web/common/copy-link.js), "Embed" and the embedded page's "Open
// full explorer" link. The link is the page URL with the state in its hash.
import { copyText, setupCopyLink } from '../common/copy-link.js';
import { frameSnippet } from '../common/embed-snippet.js';
import { linkParams, linkText } from '../common/hashstate.js';

// The page URL href with the hash fields `set` set and `drop` removed (order kept).
function withHash(href, set, drop) {
  const u = new URL(href);
  const params = linkParams(u.hash);
  for (const k of drop) params.delete(k);
  for (const [k, v] of Object.entries(set)) params.set(k, v);
  u.hash = linkText(params);
  return u.href;
}

// The snippet embedding the page at href (help hidden, embed mode on): an <iframe> with a fixed
// height that fits the figures, and the script that resizes it to the height the page posts
// (web/common/embed-snippet.js).
export function embedSnippet(href) {
  const src = withHash(href, { embed: '1' }, ['help']);
  return frameSnippet({ src, page: 'explorer', title: 'attnx: fixed-weight self-attention approximating a sparse pattern' });
}

function setupEmbed({ embedBtn, embedPanel, embedCode, embedCopy, embedMsg, currentHref }) {
  embedBtn.addEventListener('click', () => {
    const show = embedPanel.hidden;
    embedPanel.hidden = !show;
    embedBtn.setAttribute('aria-expanded', String(show));
    if (!show) return;
    embedCode.value = embedSnippet(currentHref());
    embedMsg.textContent = '';
    embedCode.focus();
    embedCode.select();
  });
  embedCopy.addEventListener('click', async () => {
    embedCode.value = embedSnippet(currentHref());
    const ok = await copyText(embedCode.value);
    embedMsg.textContent = ok ? 'Snippet copied.' : 'Select the snippet and copy it (Ctrl+C).';
    embedCode.select();
  });
}

// Wires the buttons (elements by role, see index.html; currentHref() gives the page's link).
// Returns { refresh() }: call after the link changed (updates the shown link, snippet and the
// "Open full explorer" href).
export function setupShare(els) {
  const { copyBtn, out, input, msg, embedPanel, embedCode, currentHref, openFull } = els;
  const copy = setupCopyLink(copyBtn, currentHref, msg, { field: input, box: out });
  setupEmbed(els);
  return {
    refresh() {
      copy.refresh();
      if (!embedPanel.hidden) embedCode.value = embedSnippet(currentHref());
      openFull.href = withHash(currentHref(), {}, ['embed']);
    },
  };
}
