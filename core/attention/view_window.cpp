// attnx core: the explorer's zoom windows (views.hpp ViewWindow): which windows of an L x L
// matrix exist, and the link text "i0,i1,j0,j1" read and checked.
#include <attnx/views.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <attnx/errors.hpp>
#include <attnx/number_grammar.hpp>
#include <attnx/pattern.hpp>

namespace attnx {

namespace {

// Whether the four values are a window of an L x L matrix.
bool is_window(const std::vector<long long>& v, int L) {
  if (v.size() != 4) return false;
  const long long m = view_min_span(L);
  for (int axis = 0; axis < 2; ++axis) {
    const long long a = v[2 * axis], b = v[2 * axis + 1];
    if (a < 0 || b > L || b - a < m) return false;
  }
  return true;
}

}  // namespace

int view_min_span(int L) { return std::min(kMinViewSpan, L); }

std::string view_window_range_text(int L) {
  const std::string n = std::to_string(L), m = std::to_string(view_min_span(L));
  return "i0,i1,j0,j1 with 0 <= i0 < i1 <= " + n + " and 0 <= j0 < j1 <= " + n + ", at least " + m +
         " rows and " + m + " columns";
}

ViewWindow read_view_window(const std::string& text, int L) {
  std::vector<long long> v;
  if (!parse_integer_list_text(text, &v) || !is_window(v, L)) {
    const std::string note = number_text_note(text);
    fail("view", "view must be " + view_window_range_text(L) + " (got \"" + text.substr(0, 40) + "\"" +
                     (note.empty() ? "" : "; " + note) + ")");
  }
  ViewWindow w;
  w.i0 = static_cast<int>(v[0]), w.i1 = static_cast<int>(v[1]);
  w.j0 = static_cast<int>(v[2]), w.j1 = static_cast<int>(v[3]);
  return w;
}

JsonValue view_window_call(const JsonValue& text, const JsonValue& L) {
  const double n = L.type == JsonValue::Type::Number ? L.num : NAN;
  if (!(n == std::floor(n)) || n < kMinL || n > kMaxL)
    fail("L", "L must be an integer from " + std::to_string(kMinL) + " to " + std::to_string(kMaxL) + " (got " +
                  fmt_num(n) + ")");
  if (text.type != JsonValue::Type::String) fail("view", "view must be a text \"i0,i1,j0,j1\"");
  const ViewWindow w = read_view_window(text.str, static_cast<int>(n));
  JsonValue out = JsonValue::object();
  out.set("i0", JsonValue::of(w.i0)).set("i1", JsonValue::of(w.i1));
  out.set("j0", JsonValue::of(w.j0)).set("j1", JsonValue::of(w.j1));
  out.set("full", JsonValue::of(w.full(static_cast<int>(n))));
  return out;
}

}  // namespace attnx
