// attnx explorer: what the heatmaps show, in words, for screen readers (issue 28.2): generated from
// the core's numbers of one construct result (its family, L, k, class flag, the per-row verdicts
// okR/okZ, ρ, ζ, λ) with the metrics card's formatter. DOM-free.
import { fmt } from '../format.js';

/** Row indices as ranges: [18, 19, 44, 45, 46, 47] -> "18, 19 and 44–47" (runs of 3+ as a–b). */
export function rowRanges(rows) {
  const parts = [];
  for (let i = 0; i < rows.length;) {
    let j = i;
    while (j + 1 < rows.length && rows[j + 1] === rows[j] + 1) j++;
    if (j - i >= 2) parts.push(`${rows[i]}–${rows[j]}`);
    else for (let t = i; t <= j; t++) parts.push(String(rows[t]));
    i = j + 1;
  }
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** The rows of a result where (R) or (Z) fails (the core's per-row verdicts), ascending. */
export function failingRows(result) {
  const { okR, okZ } = result.rows;
  const out = [];
  for (let i = 0; i < okR.length; i++) if (okR[i] !== 1 || okZ[i] !== 1) out.push(i);
  return out;
}

/**
 * { A, M }: one sentence each. familyLabel: the family's label from the schema; tol: { eps, tau }.
 * "Target A: Sliding window, 64 tokens, at most 3 nonzeros per row and column." and "Achieved
 * M: matches A except rows 18, 19 and 44–47 (6 of 64), where ζ = 0.129 > τ = 0.1 …".
 */
export function describeFigures(result, familyLabel, tol) {
  const { L, k, maxColCount, inClass, metrics: m } = result;
  const cls = inClass ? 'at most ' + k + ' nonzeros per row and column' : `${k} nonzeros per row at most, but ${maxColCount} in its fullest column (outside the theorem's class)`;
  const A = `Target A: ${familyLabel}, ${L} tokens, ${cls}.`;
  const bad = failingRows(result);
  const scores = `ρ = ${fmt(m.rho)} (ε = ${fmt(tol.eps)}), ζ = ${fmt(m.zeta)} (τ = ${fmt(tol.tau)}), λ = ${fmt(m.lambda)}`;
  const M = bad.length === 0
    ? `Achieved M: matches A in every row; ${scores}.`
    : `Achieved M: matches A except in row${bad.length === 1 ? '' : 's'} ${rowRanges(bad)} (${bad.length} of ${L}), where (R) or (Z) fails; ${scores}.`;
  return { A, M };
}
