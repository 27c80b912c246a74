// attnx embed: the same lab as an <attnx-lab> element, as the address of lab.html in embed mode
// (for hosts that want a frame: el.frameLink). DOM-free.
import { isGlobalAttribute } from './attributes.js';
import { linkText } from '../common/hashstate.js';

/**
 * The lab page's hash for an element's attributes ([[name, value], …]) with the lab's state
 * table: "#v=<v or 1>&embed=1&theme=light&…" (a theme attribute replaces light) with each
 * attribute under its field's spelling (unknown names are passed on as written, so the lab page
 * names them).
 */
export function labHash(attrs, table) {
  const byLower = new Map(Object.keys(table).map((k) => [k.toLowerCase(), k]));
  const params = new URLSearchParams();
  const given = new Map(attrs.map(([n, v]) => [String(n).toLowerCase(), v]));
  params.set('v', given.get('v') ?? '1');
  params.set('embed', '1');
  params.set('theme', 'light');  // as <attnx-explorer>: light unless theme says otherwise
  for (const [name, value] of given) {
    if (name === 'v' || name === 'embed' || name === 'figures' || isGlobalAttribute(name)) continue;
    params.set(byLower.get(name) || name, value);
  }
  return `#${linkText(params)}`;
}

