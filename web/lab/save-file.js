// attnx lab: "Save as one file" (web/common/one-file.js): the one-file lab with the lab's settings
// as its saved link, named after them. When the lab shows a finished sweep of these settings the
// link runs it on open (autorun): the same seeds give the same numbers, offline.
import { saveOneFile, oneFileName } from '../common/one-file.js';
import { checkState } from './settings.js';
import { writeLink } from './link.js';

/** The saved file's name for lab state st: attnx-lab-<pattern>-L<first>-<last>[-<construction>]-t<trials>.html. */
export function labFileName(schema, st) {
  const Ls = String(st.Ls).split(',');
  return oneFileName(['lab', st.pattern, `L${Ls[0]}-${Ls[Ls.length - 1]}`,
    ...(st.construction !== schema.options.construction.default ? [st.construction] : []), `t${st.trials}`]);
}

/** Wires the page's "Save as one file" button; what happened goes to the page's messages. */
export function setupSave(button, app, messages) {
  button.addEventListener('click', async () => {
    const st = app.store.get();
    if (checkState(app.schema, app.table, st).errors.length) {
      messages.set('save', ['Save as one file: some settings are invalid; correct them first.'], 'error');
      return;
    }
    button.disabled = true;
    try {
      const link = writeLink(app.schema, app.table, st, { autorun: app.runState === 'done' });
      const r = await saveOneFile('lab', { link }, labFileName(app.schema, st));
      messages.set('save', [`Saved ${r.name} (${(r.size / 1048576).toFixed(2)} MB): it opens from disk, offline, with these settings${app.runState === 'done' ? ' and runs the same sweep' : ''}.`], 'ok');
    } catch (e) {
      messages.set('save', [`Save as one file: ${e.message}`], 'error');
    } finally {
      button.disabled = false;
    }
  });
}
