// The explorer's URL as tests and scripts read it: location.hash once the page's last link write
// is made (web/explorer/link.js writes it URL_WRITE_MS after the last change). The wait is a
// timer in the page, due after the link's own: page (a Page or Frame) reads it when that ran.
import { URL_WRITE_MS } from '../web/explorer/link.js';

export function urlHash(page) {
  return page.evaluate((ms) => new Promise((resolve) => setTimeout(() => resolve(location.hash), ms)), URL_WRITE_MS + 20);
}
