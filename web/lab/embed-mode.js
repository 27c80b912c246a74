// attnx lab: embed mode (#embed=1, for an <iframe>): the figures first, without the page's header,
// footer, results table and downloads (lab.css, "Embed mode"); the settings form only with
// controls=1, else just Run and Cancel under the figures; a link to the full lab.
import { fullPageLink, hashAsksEmbed } from './link.js';

// Contract: puts lab.html in embed mode at once when the URL asks for it (before the core has
// loaded: no flash of the full page in a frame). showMode() decides once the link is read.
export function guessMode() {
  document.body.classList.toggle('embed', hashAsksEmbed(location.hash));
}

// Contract: shows the lab in the mode of state st (the store's): class 'embed' on app.box (the
// page's <body>, or the element's box) when st.embed, 'embed-controls' when the settings form is
// shown too (st.embed && st.controls), and the "Open the full lab" link pointing at st's link
// without the embed fields. app: { $, box, schema, table, labHref(hash) }.
export function showMode(app, st) {
  app.box.classList.toggle('embed', !!st.embed);
  app.box.classList.toggle('embed-controls', !!(st.embed && st.controls));
  const href = app.labHref(fullPageLink(app.schema, app.table, st));
  const a = app.$('open-full');
  if (a.getAttribute('href') !== href) a.setAttribute('href', href);
}

// Contract: the status line of an idle page in state st: embedded without the form it only names
// the Run button (there are no settings to choose there).
export function readyText(st) {
  return st.embed && !st.controls
    ? 'Ready. Press Run sweep to compute the plots for these settings.'
    : 'Ready. Choose the settings and press Run sweep (or use the paper preset).';
}
