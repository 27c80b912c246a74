// attnx pages: offering a file as a download (the lab's exports, the explorer's pattern export,
// the one-file pages' "Save as one file").

/**
 * Offers `blob` as a download named `filename`: a temporary object URL on a clicked link, revoked
 * a minute later (long enough for a large file to be read).
 */
export function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}
