// attnx core: reading and writing custom patterns as text (see pattern_io.hpp).
#include <attnx/pattern_io.hpp>

#include <algorithm>
#include <cmath>

#include <attnx/errors.hpp>
#include <attnx/json.hpp>
#include <attnx/schema.hpp>

namespace attnx {

namespace {

[[noreturn]] void refuse(const std::string& msg) { fail("text", msg); }

// One value of an entry as read: a number, or something else shown as `shown`.
struct Cell {
  bool number = false;
  double v = 0;
  std::string shown;
};

struct Entry {
  Cell i, j, w;
  int line = 0;
  long long index = -1;  // position in a JSON list; -1 for the lines form
};

std::string where(const Entry& e) {
  std::string s = "line " + std::to_string(e.line);
  if (e.index >= 0) s += " (entry " + std::to_string(e.index) + ")";
  return s;
}

std::string quoted(const std::string& s) {
  return json_escape(s.size() > 20 ? s.substr(0, 20) + "..." : s);
}

Cell json_cell(const JsonValue& x) {
  switch (x.type) {
    case JsonValue::Type::Number: return {true, x.num, js_number(x.num)};
    case JsonValue::Type::String: return {false, 0, quoted(x.str)};
    case JsonValue::Type::Bool: return {false, 0, x.b ? "true" : "false"};
    default: return {false, 0, json_type_name(x.type)};
  }
}

// A number as the lines form writes it: [-+]?(digits[.digits] | .digits)([eE][-+]?digits)?
bool number_text(const std::string& s, double& out) {
  std::size_t p = 0, n = s.size();
  auto digits = [&] {
    std::size_t a = p;
    while (p < n && s[p] >= '0' && s[p] <= '9') ++p;
    return p - a;
  };
  if (p < n && (s[p] == '-' || s[p] == '+')) ++p;
  const std::size_t before = digits();
  std::size_t after = 0;
  if (p < n && s[p] == '.') { ++p; after = digits(); }
  if (before == 0 && after == 0) return false;
  if (p < n && (s[p] == 'e' || s[p] == 'E')) {
    ++p;
    if (p < n && (s[p] == '-' || s[p] == '+')) ++p;
    if (digits() == 0) return false;
  }
  if (p != n) return false;
  out = parse_decimal(s.data(), s.data() + n);
  return true;
}

Cell text_cell(const std::string& s) {
  Cell c;
  c.number = number_text(s, c.v);
  c.shown = c.number ? s : quoted(s);
  return c;
}

// Checks an entry's types and ranges; indices up to max_index (L-1 when L is known).
void check_entry(const Entry& e, long long max_index) {
  auto index = [&](const Cell& c, const char* what) {
    if (!c.number || c.v != std::floor(c.v) || c.v < 0 || c.v > double(max_index))
      refuse(where(e) + ": " + what + " must be an integer from 0 to " +
             std::to_string(max_index) + " (got " + c.shown + ")");
  };
  index(e.i, "row index");
  index(e.j, "column index");
  if (!e.w.number || !std::isfinite(e.w.v) || e.w.v < 0)
    refuse(where(e) + ": weight must be a finite number >= 0 (got " + e.w.shown + ")");
}

void check_count(std::size_t n, const std::string& at) {
  if (n > static_cast<std::size_t>(kMaxNnz))
    refuse(at + "too many entries (" + std::to_string(n) + "; a pattern may have at most " +
           std::to_string(kMaxNnz) + ")");
}

// L of a JSON object's "L" member (an integer in [kMinL, kMaxL]).
long long json_L(const JsonValue& l) {
  const Cell c = json_cell(l);
  if (!c.number || c.v != std::floor(c.v) || c.v < kMinL || c.v > kMaxL)
    refuse("line " + std::to_string(l.line) + ": \"L\" must be an integer from " +
           std::to_string(kMinL) + " to " + std::to_string(kMaxL) + " (got " + c.shown + ")");
  return static_cast<long long>(c.v);
}

// The entry list of a JSON document; sets L when the document or the caller gives it.
const JsonValue& json_list(const JsonValue& doc, long long& L, long long L_given) {
  L = L_given;
  if (doc.type == JsonValue::Type::Array) return doc;
  const JsonValue* list = doc.find("triplets");
  if (!list) list = doc.find("A");
  if (!list || list->type != JsonValue::Type::Array)
    refuse("line " + std::to_string(list ? list->line : doc.line) +
           ": expected a \"triplets\" array of [i, j, w] entries" +
           (list ? std::string(" (got ") + json_type_name(list->type) + ")" : ""));
  if (const JsonValue* l = doc.find("L")) {
    L = json_L(*l);
    if (L_given >= 0 && L != L_given)
      refuse("line " + std::to_string(l->line) + ": \"L\" is " + std::to_string(L) +
             " but the length given is " + std::to_string(L_given));
  }
  return *list;
}

std::vector<Entry> json_entries(const std::string& text, long long& L, long long L_given) {
  JsonValue doc;
  try {
    doc = json_parse(text);
  } catch (const JsonSyntaxError& e) {
    refuse("line " + std::to_string(e.line()) + ", column " + std::to_string(e.column()) +
           ": invalid JSON: " + e.reason());
  }
  const JsonValue& list = json_list(doc, L, L_given);
  check_count(list.arr.size(), "");
  std::vector<Entry> out;
  out.reserve(list.arr.size());
  for (std::size_t t = 0; t < list.arr.size(); ++t) {
    const JsonValue& x = list.arr[t];
    Entry e;
    e.line = x.line;
    e.index = static_cast<long long>(t);
    if (x.type != JsonValue::Type::Array || x.arr.size() != 3)
      refuse(where(e) + ": expected [i, j, w] (got " +
             (x.type == JsonValue::Type::Array ? "an array of " + std::to_string(x.arr.size())
                                               : json_cell(x).shown) + ")");
    e.i = json_cell(x.arr[0]);
    e.j = json_cell(x.arr[1]);
    e.w = json_cell(x.arr[2]);
    check_entry(e, L >= 0 ? L - 1 : kMaxL - 1);
    out.push_back(std::move(e));
  }
  return out;
}

// Cells of one line: separated by ',', ';' or a tab (with any spaces around) or by spaces.
std::vector<std::string> split_cells(const std::string& s) {
  std::vector<std::string> cells(1);
  std::size_t p = 0;
  auto space = [&] { return p < s.size() && (s[p] == ' ' || s[p] == '\t'); };
  while (p < s.size()) {
    const char c = s[p];
    if (c != ',' && c != ';' && c != ' ' && c != '\t') { cells.back() += c; ++p; continue; }
    const std::size_t start = p;
    while (space()) ++p;
    if (p < s.size() && (s[p] == ',' || s[p] == ';')) ++p;
    while (space()) ++p;
    if (p > start) cells.emplace_back();
  }
  return cells;
}

std::string trim(const std::string& s) {
  const char* ws = " \t\r\v\f";
  const std::size_t a = s.find_first_not_of(ws);
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(ws) - a + 1);
}

bool header_line(const std::string& s) {
  for (char c : s)
    if (!((c | 0x20) >= 'a' && (c | 0x20) <= 'z') && c != '_' && c != ' ' && c != ',' &&
        c != ';' && c != '\t')
      return false;
  return true;
}

std::vector<Entry> line_entries(const std::string& text, long long L) {
  std::vector<Entry> out;
  std::size_t pos = 0;
  for (int n = 1; pos <= text.size(); ++n) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty() || line[0] == '#' || (out.empty() && header_line(line))) continue;
    Entry e;
    e.line = n;
    const std::vector<std::string> cells = split_cells(line);
    if (cells.size() != 3)
      refuse(where(e) + ": expected 3 values \"i,j,w\" (got " + std::to_string(cells.size()) + ")");
    check_count(out.size() + 1, where(e) + ": ");
    e.i = text_cell(cells[0]);
    e.j = text_cell(cells[1]);
    e.w = text_cell(cells[2]);
    check_entry(e, L >= 0 ? L - 1 : kMaxL - 1);
    out.push_back(std::move(e));
  }
  return out;
}

// Positive entries sorted by (i, j); refuses a cell given twice (the later one in the text).
std::vector<Triplet> sorted_positive(const std::vector<Entry>& es) {
  std::vector<std::size_t> order;
  for (std::size_t n = 0; n < es.size(); ++n)
    if (es[n].w.v > 0) order.push_back(n);
  auto key = [&](std::size_t n) { return std::make_pair(es[n].i.v, es[n].j.v); };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  std::size_t bad = es.size(), first = 0;
  for (std::size_t n = 1; n < order.size(); ++n)
    if (key(order[n]) == key(order[n - 1]) && order[n] < bad) {
      bad = order[n];
      first = order[n - 1];
    }
  if (bad < es.size())
    refuse(where(es[bad]) + ": cell (" + es[bad].i.shown + ", " + es[bad].j.shown +
           ") appears twice (first at " + where(es[first]) + ")");
  std::vector<Triplet> ts;
  ts.reserve(order.size());
  for (std::size_t n : order)
    ts.push_back({static_cast<long long>(es[n].i.v), static_cast<long long>(es[n].j.v), es[n].w.v});
  return ts;
}

std::string strip_bom(const std::string& text) {
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) return text.substr(3);
  return text;
}

}  // namespace

PatternTriplets parse_pattern_triplets(const std::string& text_in, long long L_given) {
  if (text_in.size() > kMaxPatternTextBytes)
    refuse("the text is too large (" + std::to_string(text_in.size() >> 20) + " MiB; at most " +
           std::to_string(kMaxPatternTextBytes >> 20) + " MiB)");
  if (L_given >= 0) require_option("L", static_cast<double>(L_given));
  const std::string text = strip_bom(text_in);
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos)
    refuse("the text is empty: expected {\"L\": n, \"triplets\": [[i, j, w], ...]}, "
           "[[i, j, w], ...] or lines i,j,w");
  long long L = -1;
  const bool json = text[first] == '[' || text[first] == '{';
  const std::vector<Entry> es = json ? json_entries(text, L, L_given) : line_entries(text, L_given);
  if (!json) L = L_given;  // the lines form has no L of its own
  if (es.empty()) refuse("no entries found: expected triplets i, j, w");
  if (L < 0) {
    double mx = 0;
    for (const Entry& e : es) mx = std::max({mx, e.i.v, e.j.v});
    L = std::max<long long>(kMinL, static_cast<long long>(mx) + 1);
  }
  PatternTriplets out;
  out.L = static_cast<int>(L);
  out.triplets = sorted_positive(es);
  std::vector<char> has(out.L, 0);
  for (const Triplet& t : out.triplets) has[t.i] = 1;
  for (int i = 0; i < out.L; ++i)
    if (!has[i])
      refuse("row " + std::to_string(i) + " has no positive weight; every row needs at least one "
             "(L = " + std::to_string(out.L) + ")");
  return out;
}

Pattern parse_pattern_text(const std::string& text, long long L_given) {
  const PatternTriplets p = parse_pattern_triplets(text, L_given);
  return pattern_from_triplets(p.L, p.triplets);
}

std::string pattern_to_json(const PatternTriplets& p) {
  std::string o = "{\"L\":" + std::to_string(p.L) + ",\"triplets\":[\n";
  for (std::size_t t = 0; t < p.triplets.size(); ++t) {
    const Triplet& x = p.triplets[t];
    if (t) o += ",\n";
    o += "[" + std::to_string(x.i) + "," + std::to_string(x.j) + "," + js_number(x.w) + "]";
  }
  return o + "\n]}\n";
}

std::string pattern_to_csv(const PatternTriplets& p) {
  std::string o = "i,j,w\n";
  for (const Triplet& x : p.triplets)
    o += std::to_string(x.i) + "," + std::to_string(x.j) + "," + js_number(x.w) + "\n";
  return o;
}

namespace {
PatternTriplets triplets_of(const Pattern& A) {
  PatternTriplets p;
  p.L = A.L;
  p.triplets.reserve(A.col.size());
  for (int i = 0; i < A.L; ++i)
    for (int e = A.row_begin(i); e < A.row_end(i); ++e)
      p.triplets.push_back({i, A.col[e], A.val[e]});
  return p;
}
}  // namespace

std::string pattern_to_json(const Pattern& p) { return pattern_to_json(triplets_of(p)); }
std::string pattern_to_csv(const Pattern& p) { return pattern_to_csv(triplets_of(p)); }

EntryColumns<double> entry_columns(const std::vector<Triplet>& triplets) {
  EntryColumns<double> c;
  for (const Triplet& x : triplets) {
    c.rows.push_back(static_cast<int>(x.i));
    c.cols.push_back(static_cast<int>(x.j));
    c.vals.push_back(x.w);
  }
  return c;
}

EntryColumns<float> entry_columns(const Pattern& A) {
  EntryColumns<float> c;
  c.rows.resize(A.col.size());
  for (int i = 0; i < A.L; ++i)
    std::fill(c.rows.begin() + A.row_begin(i), c.rows.begin() + A.row_end(i), i);
  c.cols = A.col;
  c.vals.assign(A.val.begin(), A.val.end());
  return c;
}

void write_pattern_counts(JsonWriter& w, int k, int max_col_count, bool in_class, int nnz) {
  w.field("k", k);
  w.field("max_col_count", max_col_count);
  w.field("in_class", in_class);
  w.field("nnz", nnz);
}

}  // namespace attnx
