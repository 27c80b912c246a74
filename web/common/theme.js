// attnx web: the pages' colour theme (the view field `theme` of both pages). DOM-light.

// The values of `theme`: auto follows the reader's system (the pages' default); light and dark
// fix the scheme (an embed inside a light blog stays light in a reader's dark mode).
export const THEME_VALUES = ['light', 'dark', 'auto'];

// The state-table field of `theme` (web/common/hashstate.js; written to links when not auto).
export const THEME_FIELD = { type: 'enum', values: THEME_VALUES, def: 'auto' };

/** Sets the page's theme: <html data-theme> (base.css picks the scheme from it). */
export function applyTheme(theme, doc = document) {
  const root = doc.documentElement;
  if (theme === 'light' || theme === 'dark') root.dataset.theme = theme;
  else delete root.dataset.theme;
}

/** True when `theme` shows dark colours: dark, or (auto, or none) when the system prefers dark. */
export function themeIsDark(theme) {
  if (theme === 'light' || theme === 'dark') return theme === 'dark';
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

/** True when the page shows its dark colours (its theme, else the system's preference). */
export function pageIsDark(doc = document) {
  return themeIsDark(doc.documentElement.dataset.theme);
}
