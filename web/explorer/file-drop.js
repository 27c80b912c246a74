// attnx explorer: where a dropped file goes. Each zone reads the files dropped on it (the head
// tools: a model's attention head; the custom-pattern tools: a pattern's JSON or CSV). A file
// dropped anywhere else is not read (the browser is also kept from opening it in place of the
// page, which would lose the visitor's state); onElsewhere(name) says where to drop it. While a
// file is dragged over the page, the zones are outlined (the `dragging-file` class on the root).

const OUTLINE_MS = 200;  // the outline goes this long after the last dragover (no reliable dragend)

const hasFiles = (ev) => !!ev.dataTransfer && [...ev.dataTransfer.types].includes('Files');

/**
 * Wires the drop zones. zones: [{ el (Element), read(file: File) }]; onElsewhere(name): a file
 * was dropped outside every zone; root: the element that gets the `dragging-file` class
 * (document.documentElement on the page). Returns a function that removes the listeners.
 */
export function attachFileDrop(zones, onElsewhere, root = document.documentElement) {
  let timer = 0;
  const outline = (on) => {
    clearTimeout(timer);
    root.classList.toggle('dragging-file', on);
    if (on) timer = setTimeout(() => root.classList.remove('dragging-file'), OUTLINE_MS);
  };
  const over = (ev) => {
    if (!hasFiles(ev)) return;
    ev.preventDefault();  // allows the drop (else the browser opens the file)
    ev.dataTransfer.dropEffect = zones.some((z) => z.el.contains(ev.target)) ? 'copy' : 'none';
    outline(true);
  };
  const drop = (ev) => {
    const f = ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files[0];
    if (!f) return;
    ev.preventDefault();
    outline(false);
    const zone = zones.find((z) => z.el.contains(ev.target));
    if (zone) zone.read(f);
    else onElsewhere(f.name);
  };
  document.addEventListener('dragover', over);
  document.addEventListener('drop', drop);
  return () => {
    document.removeEventListener('dragover', over);
    document.removeEventListener('drop', drop);
  };
}
