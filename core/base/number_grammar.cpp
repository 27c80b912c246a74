// attnx core: the number grammar of flags, attributes and links (see number_grammar.hpp), as a
// hand parser that accepts exactly the texts its published regular expressions accept.
#include <attnx/number_grammar.hpp>

#include <cmath>
#include <limits>

#include <attnx/json.hpp>

namespace attnx {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// The end of "0|[1-9][0-9]*" starting at p, or npos when there is none.
std::size_t unsigned_end(const std::string& s, std::size_t p) {
  if (p >= s.size() || !digit(s[p])) return std::string::npos;
  if (s[p] == '0') return p + 1;
  while (p < s.size() && digit(s[p])) ++p;
  return p;
}

// The end of "0|-?[1-9][0-9]*" starting at p, or npos.
std::size_t integer_end(const std::string& s, std::size_t p) {
  const bool minus = p < s.size() && s[p] == '-';
  const std::size_t e = unsigned_end(s, p + (minus ? 1 : 0));
  if (e == std::string::npos || (minus && s[p + 1] == '0')) return std::string::npos;
  return e;
}

// The end of a real starting at p (JSON number syntax), or npos.
std::size_t real_end(const std::string& s, std::size_t p) {
  std::size_t q = unsigned_end(s, p + (p < s.size() && s[p] == '-' ? 1 : 0));
  if (q == std::string::npos) return q;
  if (q < s.size() && s[q] == '.') {
    if (q + 1 >= s.size() || !digit(s[q + 1])) return std::string::npos;
    for (++q; q < s.size() && digit(s[q]);) ++q;
  }
  if (q < s.size() && (s[q] == 'e' || s[q] == 'E')) {
    ++q;
    if (q < s.size() && (s[q] == '+' || s[q] == '-')) ++q;
    if (q >= s.size() || !digit(s[q])) return std::string::npos;
    while (q < s.size() && digit(s[q])) ++q;
  }
  return q;
}

// The value of the integer text s[a, b) (already matched): false on overflow.
bool integer_value(const std::string& s, std::size_t a, std::size_t b, long long* out) {
  const bool minus = s[a] == '-';
  unsigned long long v = 0;
  const unsigned long long cap = static_cast<unsigned long long>(std::numeric_limits<long long>::max());
  for (std::size_t p = a + (minus ? 1 : 0); p < b; ++p) {
    const unsigned d = static_cast<unsigned>(s[p] - '0');
    if (v > (cap - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = minus ? -static_cast<long long>(v) : static_cast<long long>(v);
  return true;
}

}  // namespace

bool is_integer_text(const std::string& text) { return integer_end(text, 0) == text.size(); }

bool is_real_text(const std::string& text) { return real_end(text, 0) == text.size(); }

bool parse_integer_text(const std::string& text, long long* out) {
  return is_integer_text(text) && integer_value(text, 0, text.size(), out);
}

bool parse_real_text(const std::string& text, double* out) {
  if (!is_real_text(text)) return false;
  const double v = parse_decimal(text.data(), text.data() + text.size());
  if (!std::isfinite(v)) return false;
  *out = v;
  return true;
}

bool parse_integer_list_text(const std::string& text, std::vector<long long>* out) {
  std::vector<long long> values;
  for (std::size_t p = 0;;) {
    const std::size_t e = integer_end(text, p);
    long long v = 0;
    if (e == std::string::npos || !integer_value(text, p, e, &v)) return false;
    values.push_back(v);
    if (e == text.size()) break;
    if (text[e] != ',') return false;
    p = e + 1;
  }
  *out = std::move(values);
  return true;
}

bool parse_real_list_text(const std::string& text, std::vector<double>* out) {
  std::vector<double> values;
  for (std::size_t p = 0;;) {
    std::size_t e = text.find(',', p);
    if (e == std::string::npos) e = text.size();
    double v = 0;
    if (!parse_real_text(text.substr(p, e - p), &v)) return false;
    values.push_back(v);
    if (e == text.size()) break;
    p = e + 1;
  }
  *out = std::move(values);
  return true;
}

std::string number_text_note(const std::string& text) {
  bool space = false, plus = false, zero = false, point = false, minus_zero = false;
  const std::size_t n = text.size();
  for (std::size_t p = 0; p < n; ++p) {
    const char c = text[p];
    const bool starts = p == 0 || text[p - 1] == ',' || text[p - 1] == ' ';  // an entry's start
    space = space || c == ' ' || c == '\t';
    plus = plus || (c == '+' && starts);
    const std::size_t q = p + (c == '-' && starts ? 1 : 0);
    zero = zero || (starts && q + 1 < n && text[q] == '0' && digit(text[q + 1]));
    point = point || (c == '.' && (p == 0 || !digit(text[p - 1]) || p + 1 == n || !digit(text[p + 1])));
    minus_zero = minus_zero || (starts && c == '-' && p + 1 < n && text[p + 1] == '0' && (p + 2 == n || text[p + 2] == ','));
  }
  const auto& notes = number_text_notes();
  const bool found[] = {plus, zero, point, minus_zero, space};
  for (std::size_t i = 0; i < notes.size(); ++i)
    if (found[i]) return notes[i].note;
  return "";
}

const std::vector<NumberNote>& number_text_notes() {
  static const std::vector<NumberNote> notes = {
      {"(?:^|[, ])\\+", "numbers are written without a plus sign"},
      {"(?:^|[, ])-?0[0-9]", "numbers are written without leading zeros"},
      {"(?:^|[^0-9])\\.|\\.(?:[^0-9]|$)", "numbers are written with a digit on each side of the point (0.5, not .5 or 5.)"},
      {"(?:^|[, ])-0(?:$|,)", "zero is written 0, without a minus sign"},
      {"[ \\t]", "numbers are written without spaces"},
  };
  return notes;
}

}  // namespace attnx
