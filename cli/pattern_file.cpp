// attnx CLI: reading a custom pattern from a JSON file (--pattern custom --pattern-file FILE).
// Accepted: {"L": n, "triplets": [[i, j, w], ...]}, a bare [[i, j, w], ...] with --L, or an
// `attnx construct --export` file (its "L" and "A").
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common.hpp"
#include <attnx/errors.hpp>

namespace attnx::cli {

namespace {
std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read --pattern-file " + path + ": " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw UsageError("cannot read --pattern-file " + path);
  return ss.str();
}

// A JSON number that is an integer; `what` names it in messages.
long long integer_of(const JsonValue& v, const std::string& where, const char* what) {
  if (v.type != JsonValue::Type::Number)
    throw UsageError(where + ": " + what + " must be an integer (got " + json_type_name(v.type) +
                     ")");
  if (v.num != std::floor(v.num) || std::fabs(v.num) > 9007199254740992.0)
    throw UsageError(where + ": " + what + " must be an integer (got " + json_number(v.num) + ")");
  return static_cast<long long>(v.num);
}
}  // namespace

Pattern read_pattern_file(const std::string& path, long long L_flag) {
  const std::string where = "--pattern-file " + path;
  JsonValue doc;
  try {
    doc = json_parse(read_file(path));
  } catch (const UsageError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw UsageError(where + ": invalid JSON at " + e.what());
  }

  const JsonValue* list = nullptr;
  long long L = L_flag;
  if (doc.type == JsonValue::Type::Array) {
    list = &doc;
    if (L_flag < 0)
      throw UsageError(where + " is a bare list of triplets: give the length with --L");
  } else if (doc.type == JsonValue::Type::Object) {
    list = doc.find("triplets");
    if (!list) list = doc.find("A");
    if (!list || list->type != JsonValue::Type::Array)
      throw UsageError(where + ": expected a \"triplets\" array of [i, j, w] entries");
    if (const JsonValue* l = doc.find("L")) {
      long long fl = integer_of(*l, where, "\"L\"");
      if (L_flag >= 0 && fl != L_flag)
        throw UsageError(where + " has \"L\": " + std::to_string(fl) + " but --L is " +
                         std::to_string(L_flag));
      L = fl;
    } else if (L_flag < 0) {
      throw UsageError(where + " has no \"L\": add it to the file or give --L");
    }
  } else {
    throw UsageError(where + ": expected an object {\"L\": n, \"triplets\": [...]} or an array "
                     "of [i, j, w] triplets (got " + json_type_name(doc.type) + ")");
  }
  if (L < kMinL || L > kMaxL)
    throw UsageError(where + ": L must be an integer from " + std::to_string(kMinL) + " to " +
                     std::to_string(kMaxL) + " (got " + std::to_string(L) + ")");

  std::vector<Triplet> ts;
  ts.reserve(list->arr.size());
  for (std::size_t t = 0; t < list->arr.size(); ++t) {
    const JsonValue& e = list->arr[t];
    const std::string at = where + ": entry " + std::to_string(t);
    if (e.type != JsonValue::Type::Array || e.arr.size() != 3)
      throw UsageError(at + " must be [i, j, w] (got " +
                       (e.type == JsonValue::Type::Array
                            ? "an array of " + std::to_string(e.arr.size())
                            : std::string(json_type_name(e.type))) +
                       ")");
    Triplet tr;
    tr.i = integer_of(e.arr[0], at, "row index");
    tr.j = integer_of(e.arr[1], at, "column index");
    if (e.arr[2].type != JsonValue::Type::Number)
      throw UsageError(at + ": weight must be a number (got " + json_type_name(e.arr[2].type) + ")");
    tr.w = e.arr[2].num;
    ts.push_back(tr);
  }
  try {
    return pattern_from_triplets(static_cast<int>(L), ts);
  } catch (const InvalidArgument& e) {
    throw UsageError(where + ": " + e.what());
  }
}

}  // namespace attnx::cli
