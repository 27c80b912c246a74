// attnx explorer: the metrics card's text of each number, DOM-free: the one formatter of the card
// (views/metrics-view.js, views/precision-view.js) and of the placeholders in a story's text
// (story-text.js), so a story can never print a number differently from the card.
import { fmt, fmtInt, fmtVs } from './format.js';

// A verdict as a word: 'holds' or 'fails'.
export const holdsWord = (ok) => (ok ? 'holds' : 'fails');

// The card's text of the construct result r's numbers (tol: { eps, tau }, the core's params).
export const cardText = {
  rho: (r, tol) => fmtVs(r.metrics.rho, tol.eps),
  zeta: (r, tol) => fmtVs(r.metrics.zeta, tol.tau),
  lambda: (r) => fmt(r.metrics.lambda),
  beta: (r) => fmt(r.metrics.beta),
  k: (r) => String(r.k),
  maxColCount: (r) => String(r.maxColCount),
  d: (r) => fmtInt(r.d),
  dStar: (r) => fmtInt(r.dStar),
  eps: (r, tol) => fmt(tol.eps),
  tau: (r, tol) => fmt(tol.tau),
};

// The card's text of a precision report's numbers (p: the core's precision object).
export const precisionText = {
  inputNorm: (p) => fmt(p.inputNorm),
  fp32: (p) => `${p.fp32 ? '✓' : '✗'} ${holdsWord(p.fp32)}`,
  fp64: (p) => `${p.fp64 ? '✓' : '✗'} ${holdsWord(p.fp64)}`,
  bits: (p) => (p.bits === null ? 'not reached' : String(p.bits)),
};
