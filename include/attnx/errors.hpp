// attnx core: input validation errors.
// Every refusal names the field and the allowed range, e.g.
//   "tau must be a number in (0, 1) (got 1.5)".
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace attnx {

// Thrown for any invalid input. `field()` is the option name as the CLI and JS API spell it;
// `fields()` every field a reader refused in one pass (Problems), the first being field().
class InvalidArgument : public std::invalid_argument {
 public:
  InvalidArgument(std::string field, const std::string& message)
      : std::invalid_argument(message), field_(std::move(field)), fields_{field_} {}
  InvalidArgument(std::vector<std::string> fields, const std::string& message)
      : std::invalid_argument(message), field_(fields.empty() ? "" : fields[0]), fields_(std::move(fields)) {}
  const std::string& field() const { return field_; }
  const std::vector<std::string>& fields() const { return fields_; }

 private:
  std::string field_;
  std::vector<std::string> fields_;
};

// Collects refusals, so that a reader of many fields reports every bad one at once.
class Problems {
 public:
  // Runs f; an InvalidArgument it throws is kept (every other exception passes through).
  template <class F>
  void check(F&& f) {
    try {
      f();
    } catch (const InvalidArgument& e) {
      add(e.field(), e.what());
    }
  }
  // Keeps one refusal; a second one of a field already refused is dropped (it follows from it).
  // field "": a refusal a front end worded itself (kept, never merged).
  void add(const std::string& field, const std::string& message);
  bool empty() const { return fields_.empty(); }
  const std::vector<std::string>& fields() const { return fields_; }
  const std::vector<std::string>& messages() const { return messages_; }
  bool has(const std::string& field) const;
  // Throws InvalidArgument(every field, every message joined by "; ") when any was kept.
  void throw_if_any() const;

 private:
  std::vector<std::string> fields_, messages_;
};

// Thrown when a run would need more memory than the configured budget.
class BudgetExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string& field, const std::string& message);

// Integer in [lo, hi]. Message: "<field> must be an integer from lo to hi (got v)".
void require_int(const char* field, long long value, long long lo, long long hi);
// Finite number in an interval; lo_open/hi_open choose "(" or "[". Use +-infinity for no bound.
void require_real(const char* field, double value, double lo, double hi, bool lo_open, bool hi_open);

// Format a double for messages (shortest round-trip-ish, "%.6g").
std::string fmt_num(double v);

}  // namespace attnx
