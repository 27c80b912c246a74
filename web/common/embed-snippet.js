// attnx web: the HTML a host page pastes to embed a page (DOM-free): an <iframe> of the page in
// embed mode with a fixed height that fits its figures from 360 to 720 px of width (for hosts
// that strip scripts), and a short script that resizes the frame to the height the page posts
// (web/common/embed-height.js). The README and docs/embedding.md show the same text.

// Heights in CSS px that fit each page's embed view (the examples in the README and
// docs/embedding.md, after the result is drawn) at frame widths 360 and 720, measured in headless
// Chromium (tests/e2e/embed-frame.test.mjs checks that they still fit).
export const FIXED_HEIGHT = { explorer: 860, lab: 1400 };

// The host's side: resizes the iframe whose window sent an 'attnx-height' message. Pasting it
// twice (two embeds on one page) is harmless.
export const RESIZE_SCRIPT = `<script>
addEventListener('message', function (e) {
  var d = e.data;
  if (!d || d.type !== 'attnx-height' || !(d.height > 0)) return;
  document.querySelectorAll('iframe').forEach(function (f) {
    if (f.contentWindow === e.source) f.style.height = Math.ceil(d.height) + 'px';
  });
});
</script>`;

// Text as an HTML attribute value (inside double quotes).
function attr(text) {
  return String(text).replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

// Contract: the snippet embedding the page at `src` (its URL, embed=1 included): an <iframe> 720
// px wide at most (max-width 100%), `height` px tall (default: the page's FIXED_HEIGHT), titled
// `title`, lazily loaded, then RESIZE_SCRIPT on a line of its own. page: 'explorer' | 'lab'.
// Attribute values are escaped. Never throws.
export function frameSnippet({ src, title, page, height = FIXED_HEIGHT[page] ?? 600 }) {
  const frame = `<iframe src="${attr(src)}" title="${attr(title)}" width="720" height="${attr(height)}" style="border:0;max-width:100%" loading="lazy"></iframe>`;
  return `${frame}\n${RESIZE_SCRIPT}`;
}
