// attnx core: custom patterns as text (the CLI's --pattern-file, the explorer's import and
// export). String in, string out: reading files is the caller's business.
//
// Accepted text (a UTF-8 byte order mark and surrounding white space are ignored):
//   * JSON {"L": n, "triplets": [[i, j, w], ...]}; "L" may be left out. An `attnx construct
//     --export` file is accepted too (its "L" and "A"); other members are ignored.
//   * JSON [[i, j, w], ...] (a bare list).
//   * Lines "i,j,w": values separated by ',', ';', a tab or spaces; blank lines and lines
//     starting with '#' are skipped, and so is a header of words ("i,j,w") before the first entry.
// Text starting with '[' or '{' is read as JSON, anything else as lines.
// L comes from the text, else from the caller, else it is the largest index + 1 (at least 2; a
// valid pattern has an entry in its last row). Text and caller must agree when both give it.
// Indices are 0-based integers, weights finite numbers >= 0; zero weights are dropped, a cell
// may carry one positive weight, every row needs one. JSON syntax follows RFC 8259 strictly
// (a repeated key, a trailing comma or a comment is refused).
// Refusals are InvalidArgument("text", ...) naming the place first: "line 3 (entry 2): weight
// must be a finite number >= 0 (got -1)" (JSON: the line where the entry starts and its 0-based
// index in the list; lines: "line 3"), "line 2, column 7: invalid JSON: ...", or the row
// ("row 4 has no positive weight ...").
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "json.hpp"
#include "pattern.hpp"

namespace attnx {

// Longest text read: 64 bytes for each of the kMaxNnz entries a pattern may have (256 MiB).
constexpr std::size_t kMaxPatternTextBytes = static_cast<std::size_t>(64 * kMaxNnz);

// A custom pattern as the user wrote it: raw weights (rows are not normalised).
struct PatternTriplets {
  int L = 0;
  std::vector<Triplet> triplets;
};

// Reads and fully validates a pattern text (rules above). L_given: the caller's L, or -1.
// Returns the positive entries sorted by (i, j) with their weights as written.
PatternTriplets parse_pattern_triplets(const std::string& text, long long L_given);

// The same text as a Pattern (rows normalised to sum 1).
Pattern parse_pattern_text(const std::string& text, long long L_given);

// Export text of a pattern, entries in the given order (weights as JavaScript prints them, so
// the explorer's files stay what they were):
//   JSON: {"L":3,"triplets":[\n[0,0,1],\n[1,2,0.5]\n]}\n   (one entry per line)
//   CSV:  i,j,w\n0,0,1\n1,2,0.5\n
std::string pattern_to_json(const PatternTriplets& p);
std::string pattern_to_csv(const PatternTriplets& p);
// A Pattern's entries in CSR order with its normalised weights.
std::string pattern_to_json(const Pattern& p);
std::string pattern_to_csv(const Pattern& p);

// Entries as three columns, the JavaScript API's { rows, cols, vals }: of triplets in their order
// (weights as written), of a Pattern in CSR order (normalised weights rounded to float32, as the
// API hands them over). Cost: linear in the entries.
template <class V>
struct EntryColumns {
  std::vector<int> rows, cols;
  std::vector<V> vals;
};
EntryColumns<double> entry_columns(const std::vector<Triplet>& triplets);
EntryColumns<float> entry_columns(const Pattern& A);

// The members "k", "max_col_count", "in_class" and "nnz" of a target's structure (SPEC §1), in
// that order, into the object w has open: one writer for the CLI's "pattern" and a head's
// description and survey row, so the keys stay the same everywhere.
void write_pattern_counts(JsonWriter& w, int k, int max_col_count, bool in_class, int nnz);

}  // namespace attnx
