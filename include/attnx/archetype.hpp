// attnx core: naming the simple structure a dense attention head follows (issue 24). Every
// share below is a share of the head's whole mass (the sum of all its entries, L for a
// row-stochastic head) lying on a structure:
//   * diagonal, offset o: the entries (i, i + o); o = 0 self, o = -1 previous token, o = +1 next
//     token. The best o has the largest share (ties: smaller |o|, then the negative one).
//   * sink: whole columns. Columns are ranked by the mass they receive (ties: lower column);
//     the structure is the top s columns, s from 1 to S = max(1, min(4, L / 8)).
//   * local window: the entries with offsets j - i in a band [a, a + w - 1] that contains 0, of
//     width w from 2 to W = max(2, min(16, L / 8)). For each w the best band has the largest
//     share (ties: the band reaching furthest back, the smallest a).
// A structure matches when its share is >= kArchetypeShare (0.5). For sinks and windows the
// candidate reported is the smallest s or w that matches, else the largest (S or W) with its
// share. The head's archetype is, among the matching candidates, the one allowing the fewest
// entries per row (diagonal 1, sink s, window w); ties go to the larger share, then to the order
// diagonal, sink, window. With no match it is "none", whose share is the largest candidate share
// (how close the head came to a structure).
#pragma once
#include <string>
#include <vector>

namespace attnx {

constexpr double kArchetypeShare = 0.5;
constexpr int kMaxSinkColumns = 4;
constexpr int kMaxWindowWidth = 16;

struct Archetype {
  std::string kind = "none";  // "diagonal", "sink", "window" or "none"
  int offset = 0;             // diagonal: o = j - i
  int offset_lo = 0, offset_hi = 0;  // window: offsets in [lo, hi]; width = hi - lo + 1
  std::vector<int> columns;   // sink: the columns, by mass received (largest first)
  double share = 0;           // share of the head's mass on the structure
  bool matches = false;       // share >= kArchetypeShare
  int cells = 0;              // entries per row the structure allows (diagonal 1, sink s, window w)
  std::string code;           // compact: "diagonal:-1", "sink:0+5", "window:-3..0", "none"
  std::string label;          // words: "previous token (diagonal, offset -1)", "sink (column 0)",
                              // "local window (offsets -3..0, width 4)", "none"
};

// The three candidates (diagonal, sink, window, in that order) of a head of length L, from
// offset_mass[o + L - 1] = sum_i A(i, i + o) (o from -(L-1) to L-1), column_mass[j] = sum_i
// A(i, j) and total = the sum of all entries (> 0). Cost: O(L log L).
std::vector<Archetype> archetype_candidates(const std::vector<double>& offset_mass,
                                            const std::vector<double>& column_mass, double total, int L);
// The head's archetype among the candidates (rules above).
Archetype choose_archetype(const std::vector<Archetype>& candidates);

}  // namespace attnx
