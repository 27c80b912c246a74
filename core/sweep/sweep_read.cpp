// attnx core: reading sweep files (parse_sweep, see sweep_io.hpp). CSV rows become JSON points
// first, so both formats pass the same checks (sweep_check.cpp).
#include <attnx/sweep_io.hpp>

#include <cctype>
#include <cmath>
#include <cstdio>

#include <attnx/json.hpp>
#include <attnx/schema.hpp>
#include "sweep_check.hpp"

namespace attnx {

namespace {

using Type = JsonValue::Type;
using namespace sweep_check;
const char* const kCsvHead = "L,trials,median,quantile,d_star,k,max_col_count,in_class,d_mins";

void check_Ls(const JsonValue* Ls, const std::vector<SweepRecordPoint>& pts) {
  if (!Ls) return;
  bool same = Ls->arr.size() == pts.size();
  for (std::size_t i = 0; same && i < pts.size(); ++i)
    same = Ls->arr[i].type == Type::Number && Ls->arr[i].num == pts[i].L;
  if (same) return;
  std::string given, have;
  for (std::size_t i = 0; i < Ls->arr.size() && i < 12; ++i)
    given += (i ? ", " : "") + show(&Ls->arr[i]);
  for (std::size_t i = 0; i < pts.size(); ++i) have += (i ? ", " : "") + std::to_string(pts[i].L);
  refuse("params.Ls [" + given + "] does not match the lengths of points [" + have + "]");
}

// The first n bytes of s, not cutting a UTF-8 sequence.
std::string prefix_utf8(const std::string& s, std::size_t n) {
  if (s.size() <= n) return s;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

// Whether s reads as a version: major.minor.patch (digits), then at most a "-" or "+" suffix of
// letters, digits, dots and dashes; 20 bytes at most.
bool is_version(const std::string& s) {
  if (s.empty() || s.size() > 20) return false;
  std::size_t i = 0;
  for (int part = 0; part < 3; ++part) {
    const std::size_t from = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == from || (part < 2 && (i == s.size() || s[i++] != '.'))) return false;
  }
  if (i == s.size()) return true;
  if (s[i] != '-' && s[i] != '+') return false;
  for (++i; i < s.size(); ++i)
    if (!std::isalnum(static_cast<unsigned char>(s[i])) && s[i] != '.' && s[i] != '-') return false;
  return s.back() != '-' && s.back() != '+';
}

SweepRecord parse_json(const std::string& text) {
  JsonValue doc;
  try {
    doc = json_parse(text);
  } catch (const JsonSyntaxError& e) {
    refuse(std::string("the file is not valid JSON (") + e.what() + ")");
  }
  if (doc.type != Type::Object) refuse("the file must hold a JSON object from attnx sweep");
  const JsonValue* cmd = doc.find("command");
  if (cmd && !(cmd->type == Type::String && cmd->str == "sweep"))
    refuse("this is the output of \"attnx " +
           (cmd->type == Type::String ? prefix_utf8(cmd->str, 20) : show(cmd)) +
           "\", not of \"attnx sweep\"");
  const JsonValue* pts = doc.find("points");
  const JsonValue* params = doc.find("params");
  if (!pts) refuse("points is missing: this is not the output of attnx sweep --format json");
  if (!params) refuse("params is missing: this is not the output of attnx sweep --format json");
  SweepRecord rec;
  rec.params = read_params(params);
  Rules r{rec.params.delta, rec.params.d_max ? static_cast<int>(*rec.params.d_max) : kMaxD,
          rec.params.trials};
  Names n{{}, "."};
  for (std::size_t i = 0; pts->type == Type::Array && i < pts->arr.size(); ++i)
    n.base.push_back("points[" + std::to_string(i) + "]");
  rec.points = read_points(pts, r, n);
  check_Ls(params->find("Ls"), rec.points);
  // The version is only shown beside an imported sweep: a damaged one ("NaN.0") is left out, as a
  // CSV's (which has none), rather than shown as the version that wrote the file.
  if (const JsonValue* v = doc.find("version"); v && v->type == Type::String && is_version(v->str))
    rec.version = v->str;
  return rec;
}

std::string trim(const std::string& s) {
  const char* ws = " \t\r\v\f";
  const std::size_t a = s.find_first_not_of(ws);
  return a == std::string::npos ? "" : s.substr(a, s.find_last_not_of(ws) - a + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == sep) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

// A CSV cell: NA -> null, -?(digits[.digits] | .digits)([eE][-+]?digits)? -> a number.
JsonValue csv_number(const std::string& s, const std::string& name) {
  JsonValue v;
  if (s == "NA") return v;
  std::size_t p = 0;
  auto digits = [&] {
    std::size_t a = p;
    while (p < s.size() && s[p] >= '0' && s[p] <= '9') ++p;
    return p - a;
  };
  if (p < s.size() && s[p] == '-') ++p;
  std::size_t count = digits();
  if (p < s.size() && s[p] == '.') { ++p; count += digits(); }
  bool ok = count > 0;
  if (ok && p < s.size() && (s[p] == 'e' || s[p] == 'E')) {
    ++p;
    if (p < s.size() && (s[p] == '-' || s[p] == '+')) ++p;
    ok = digits() > 0;
  }
  ok = ok && p == s.size();
  const double x = ok ? parse_decimal(s.data(), s.data() + s.size()) : 0;
  ok = ok && std::isfinite(x);
  if (!ok) refuse(name + " must be a number or NA (got " + json_escape(s.substr(0, 30)) + ")");
  v.type = Type::Number;
  v.num = x;
  return v;
}

// The CSV header with the bound columns (sweep_io.hpp).
std::string csv_head_with_bounds() {
  std::string h = kCsvHead;
  for (const std::string& k : sweep_bound_keys()) h += "," + k;
  return h;
}

// The bound cells of a CSV row (after d_mins, in sweep_bound_keys() order) as JSON members of q:
// NA -> null, the per-trial lists split at ';'.
void csv_bounds(const std::vector<std::string>& c, const std::string& at, JsonValue& q) {
  const std::vector<std::string>& keys = sweep_bound_keys();
  for (std::size_t n = 0; n < keys.size(); ++n) {
    const std::string& cell = c[9 + n];
    if (keys[n] != "logit_scales" && keys[n] != "max_abs_logits") {
      q.obj.emplace_back(keys[n], csv_number(cell, at + ", " + keys[n]));
      continue;
    }
    JsonValue list;
    list.type = Type::Array;
    const std::vector<std::string> xs = split(cell, ';');
    for (std::size_t t = 0; t < xs.size(); ++t)
      list.arr.push_back(csv_number(trim(xs[t]), at + ", " + keys[n] + "[" + std::to_string(t) + "]"));
    q.obj.emplace_back(keys[n], std::move(list));
  }
}

// One CSV row as a JSON point (with_bounds: the row has the bound columns too).
JsonValue csv_point(const std::string& line, const std::string& at, bool with_bounds) {
  const std::vector<std::string> c = split(line, ',');
  const std::size_t columns = 9 + (with_bounds ? sweep_bound_keys().size() : 0);
  if (c.size() != columns)
    refuse(at + " must have " + std::to_string(columns) + " comma-separated columns (got " +
           std::to_string(c.size()) + ")");
  JsonValue q, d;
  q.type = Type::Object;
  d.type = Type::Array;
  const std::vector<std::string> ds = split(c[8], ';');
  for (std::size_t t = 0; t < ds.size(); ++t)
    d.arr.push_back(csv_number(trim(ds[t]), at + ", d_mins[" + std::to_string(t) + "]"));
  const JsonValue trials = csv_number(c[1], at + ", trials");
  if (trials.type != Type::Number || trials.num != double(ds.size()))
    refuse(at + ": trials is " + c[1] + " but d_mins lists " + std::to_string(ds.size()) +
           " values");
  JsonValue ic;
  if (c[7] == "true" || c[7] == "false") ic.type = Type::Bool, ic.b = c[7] == "true";
  else if (c[7] != "NA")
    refuse(at + ", in_class must be true or false (got " + json_escape(c[7]) + ")");
  const char* cols[] = {"L", "", "median", "quantile", "d_star", "k", "max_col_count"};
  for (int k = 0; k < 7; ++k)
    if (k != 1) q.obj.emplace_back(cols[k], csv_number(c[k], at + ", " + cols[k]));
  q.obj.emplace_back("in_class", ic);
  q.obj.emplace_back("d_mins", std::move(d));
  if (with_bounds) csv_bounds(c, at, q);
  return q;
}

SweepRecord parse_csv(const std::string& text) {
  std::vector<std::pair<int, std::string>> lines;  // (line number, text) of non-blank lines
  const std::vector<std::string> all = split(text, '\n');
  for (std::size_t n = 0; n < all.size(); ++n) {
    std::string l = all[n];
    if (!l.empty() && l.back() == '\r') l.pop_back();
    if (!trim(l).empty()) lines.emplace_back(static_cast<int>(n) + 1, l);
  }
  const bool with_bounds = !lines.empty() && trim(lines[0].second) == csv_head_with_bounds();
  if (lines.empty() || (trim(lines[0].second) != kCsvHead && !with_bounds))
    refuse(std::string("the CSV header must be \"") + kCsvHead +
           "\", optionally followed by the bound columns \"" +
           csv_head_with_bounds().substr(std::string(kCsvHead).size() + 1) +
           "\" (as written by attnx sweep --format csv)");
  if (lines.size() < 2) refuse("the CSV holds no rows of results");
  if (lines.size() - 1 > static_cast<std::size_t>(kMaxLs))
    refuse("points must hold at most " + std::to_string(kMaxLs) + " lengths (got " +
           std::to_string(lines.size() - 1) + ")");
  JsonValue pts;
  pts.type = Type::Array;
  Names n{{}, ", "};
  for (std::size_t r = 1; r < lines.size(); ++r) {
    n.base.push_back("row " + std::to_string(lines[r].first));
    pts.arr.push_back(csv_point(lines[r].second, n.base.back(), with_bounds));
  }
  SweepRecord rec;
  rec.params.trials = static_cast<long long>(pts.arr[0].find("d_mins")->arr.size());
  rec.points = read_points(&pts, Rules{std::nullopt, kMaxD, rec.params.trials}, n);
  return rec;
}

}  // namespace

SweepRecord parse_sweep(const std::string& text) {
  if (text.size() > kMaxSweepTextBytes) {
    char mib[32];
    std::snprintf(mib, sizeof mib, "%.1f", double(text.size()) / 1048576.0);
    refuse(std::string("the file is too large (") + mib + " MiB; at most " +
           std::to_string(kMaxSweepTextBytes >> 20) + " MiB)");
  }
  // Line numbers count from the text's first line: only the byte order mark is cut off.
  const std::string body = text.substr(text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0);
  const std::size_t first = body.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) refuse("the file is empty");
  SweepRecord rec = body[first] == '{' || body[first] == '[' ? parse_json(body) : parse_csv(body);
  if (!rec.params.trials) rec.params.trials = static_cast<long long>(rec.points[0].d_mins.size());
  rec.fits = fit_points(rec.points);
  return rec;
}

}  // namespace attnx
