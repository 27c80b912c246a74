// attnx web: the "Copy link" button shared by the pages: copies the page's link (the state is in
// its hash) to the clipboard, or, where the clipboard is not available (plain http, permission
// refused), shows the link selected so the visitor can copy it.

// Copies text to the clipboard. Resolves true when copied, false when the browser refused or has
// no clipboard access (never rejects).
export async function copyText(text) {
  try {
    if (navigator.clipboard && globalThis.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* refused: the caller shows the link instead */
  }
  return false;
}

// setupCopyLink(button, getUrl, statusEl, { field, box }): on a click of `button`, copies getUrl()
// and says so in statusEl ('Link copied to the clipboard.' or how to copy it by hand). Optional
// field (a read-only <input>) shows the link, selected; box (its container) is unhidden first.
// Returns { refresh() }: updates the shown link after the state changed (no-op while hidden).
export function setupCopyLink(button, getUrl, statusEl, { field = null, box = null } = {}) {
  button.addEventListener('click', async () => {
    const url = getUrl();
    if (box) box.hidden = false;
    if (field) field.value = url;
    const ok = await copyText(url);
    statusEl.textContent = ok ? 'Link copied to the clipboard.' : 'Select the link and copy it (Ctrl+C).';
    if (field) {
      field.focus();
      field.select();
    }
  });
  return {
    refresh() {
      if (field && (!box || !box.hidden)) field.value = getUrl();
    },
  };
}
