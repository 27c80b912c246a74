// attnx web: "Copy link" and "Embed" (the link is the page URL with the state in its hash).
async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall through */
  }
  return false;
}

export function embedSnippet(href) {
  const u = new URL(href);
  const params = new URLSearchParams(u.hash.replace(/^#/, ''));
  params.delete('help');
  params.set('embed', '1');
  u.hash = params.toString();
  return `<iframe src="${u.href.replace(/"/g, '&quot;')}" title="attnx: fixed-weight self-attention approximating a sparse pattern" width="720" height="560" style="border:0;max-width:100%" loading="lazy"></iframe>`;
}

export function setupShare({ copyBtn, out, input, msg, embedBtn, embedPanel, embedCode, embedCopy, embedMsg, currentHref, openFull }) {
  copyBtn.addEventListener('click', async () => {
    const href = currentHref();
    out.hidden = false;
    input.value = href;
    const ok = await copyText(href);
    msg.textContent = ok ? 'Link copied to the clipboard.' : 'Select the link above and copy it (Ctrl+C).';
    input.focus();
    input.select();
  });
  embedBtn.addEventListener('click', () => {
    const show = embedPanel.hidden;
    embedPanel.hidden = !show;
    embedBtn.setAttribute('aria-expanded', String(show));
    if (show) {
      embedCode.value = embedSnippet(currentHref());
      embedMsg.textContent = '';
      embedCode.focus();
      embedCode.select();
    }
  });
  embedCopy.addEventListener('click', async () => {
    embedCode.value = embedSnippet(currentHref());
    const ok = await copyText(embedCode.value);
    embedMsg.textContent = ok ? 'Snippet copied.' : 'Select the snippet and copy it (Ctrl+C).';
    embedCode.select();
  });
  return {
    refresh() {
      if (!out.hidden) input.value = currentHref();
      if (!embedPanel.hidden) embedCode.value = embedSnippet(currentHref());
      const u = new URL(currentHref());
      const p = new URLSearchParams(u.hash.replace(/^#/, ''));
      p.delete('embed');
      u.hash = p.toString();
      openFull.href = u.href;
    },
  };
}
