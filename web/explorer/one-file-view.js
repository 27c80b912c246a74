// attnx explorer: the view a one-file page carries (web/common/one-file.js) and "Save as one file".
// After the page has read the saved link (one-file.js readSavedView), the saved model file is
// opened as a file the visitor opened (head-tools.js: the same reading, the same messages) and,
// when asked, its heads surveyed. Saving writes the one-file explorer with the current link and
// the open model file, named after the view.
import { fromBase64, saveOneFile, oneFileName } from '../common/one-file.js';

/** Opens the saved view's model file in the head tools and surveys it when the view asks to. */
export async function openSavedHead(view, heads, survey) {
  if (!view || !view.head) return;
  await heads.open(new Blob([fromBase64(view.head.base64)]), view.head.name);  // as a file the visitor opened
  if (view.survey && heads.file) await survey.run();
}

// The saved file's name: the target (the pattern, or the model head's layer and head), L, the
// construction when it is not the default one, and d when the construction uses it.
function viewName(st, schema) {
  const c = schema.constructions.find((x) => x.name === st.construction);
  return oneFileName([
    ...(st.head >= 0 ? [`layer${st.layer}`, `head${st.head}`] : [st.pattern]), `L${st.L}`,
    ...(st.construction !== schema.options.construction.default ? [st.construction] : []),
    ...(c && c.usesD ? [`d${st.d}`] : []),
  ]);
}

/**
 * Wires "Save as one file" (button): the one-file explorer with the page's link (link.href()) and
 * the open model file (heads.file), downloaded under the view's name; what happened goes to the
 * status messages.
 */
export function setupSave({ button, schema, link, heads, controller, status }) {
  button.addEventListener('click', async () => {
    const st = controller.st;
    if (!st) return;
    button.disabled = true;
    const f = heads.file && heads.imported ? heads.file : null;
    const name = viewName(st, schema);
    try {
      const r = await saveOneFile('explorer', { link: link.href().replace(/^[^#]*/, ''), head: f && { name: f.name, blob: f.blob } }, name);
      status.setMessages('save', [`Saved ${r.name} (${(r.size / 1048576).toFixed(2)} MB): it opens from disk, offline, with this view${f ? ` and ${f.name}` : ''}.`], 'ok');
    } catch (e) {
      status.setMessages('save', [`Save as one file: ${e.message}`], 'error');
    } finally {
      button.disabled = false;
    }
  });
}
