#include <attnx/errors.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace attnx {

void fail(const std::string& field, const std::string& message) {
  throw InvalidArgument(field, message);
}

void Problems::add(const std::string& field, const std::string& message) {
  if (!field.empty() && has(field)) return;
  fields_.push_back(field);
  messages_.push_back(message);
}

bool Problems::has(const std::string& field) const {
  for (const std::string& f : fields_)
    if (f == field) return true;
  return false;
}

void Problems::throw_if_any() const {
  if (fields_.empty()) return;
  std::string text;
  for (const std::string& m : messages_) text += (text.empty() ? "" : "; ") + m;
  throw InvalidArgument(fields_, text);
}

std::string fmt_num(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

void require_int(const char* field, long long value, long long lo, long long hi) {
  if (value < lo || value > hi)
    fail(field, std::string(field) + " must be an integer from " + std::to_string(lo) + " to " +
                    std::to_string(hi) + " (got " + std::to_string(value) + ")");
}

void require_real(const char* field, double value, double lo, double hi, bool lo_open,
                  bool hi_open) {
  bool ok = std::isfinite(value) && (lo_open ? value > lo : value >= lo) &&
            (hi_open ? value < hi : value <= hi);
  if (ok) return;
  std::string range;
  if (std::isinf(hi) && std::isinf(lo)) range = "a finite number";
  else if (std::isinf(hi)) range = std::string("a finite number ") + (lo_open ? "> " : ">= ") + fmt_num(lo);
  else
    range = std::string("a number in ") + (lo_open ? "(" : "[") + fmt_num(lo) + ", " + fmt_num(hi) +
            (hi_open ? ")" : "]");
  fail(field, std::string(field) + " must be " + range + " (got " + fmt_num(value) + ")");
}

}  // namespace attnx
