// attnx core: input validation errors.
// Every refusal names the field and the allowed range, e.g.
//   "tau must be a number in (0, 1) (got 1.5)".
#pragma once
#include <stdexcept>
#include <string>

namespace attnx {

// Thrown for any invalid input. `field()` is the option name as the CLI and JS API spell it.
class InvalidArgument : public std::invalid_argument {
 public:
  InvalidArgument(std::string field, const std::string& message)
      : std::invalid_argument(message), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
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
