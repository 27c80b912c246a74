// Issue 27, item 4: every construction's defaults fit its own limits, in every context (the CLI,
// the module, the explorer, the lab): a page or the CLI that falls back to a default for one
// setting gets a value that is valid with the others. The explorer's d of 1024 is above lp's
// 256; the fallback for lp is lp's own (construction_default), which the core then accepts.
#include <doctest/doctest.h>

#include <string>

#include <attnx/construction.hpp>
#include <attnx/errors.hpp>
#include <attnx/pattern.hpp>
#include <attnx/rng.hpp>
#include <attnx/schema.hpp>
#include "requests.hpp"

namespace {

int as_int(const std::string& text) { return std::stoi(text); }

bool uses(const attnx::ConstructionInfo& c, const std::string& option) {
  for (const auto& p : c.params)
    if (p == option) return true;
  return false;
}

}  // namespace

TEST_CASE("each construction's own numbers fit its own limits") {
  for (const auto& c : attnx::construction_infos()) {
    CAPTURE(c.name);
    if (!c.uses_d) {
      CHECK(c.d_max == 0);
      CHECK(c.explorer_d == 0);
      CHECK(c.search_step == 0);
      CHECK_FALSE(uses(c, "d"));
      continue;
    }
    CHECK(uses(c, "d"));
    CHECK((c.d_max >= 1 && c.d_max <= attnx::kMaxD));
    CHECK((c.explorer_d >= 1 && c.explorer_d <= c.d_max));
    CHECK((c.search_step >= 0 && c.search_step <= c.d_max));
  }
}

TEST_CASE("the defaults of d, step and dmax for each construction are valid in every context") {
  const attnx::Tolerances tol;
  attnx::PatternSpec spec;
  spec.L = 16;
  attnx::Rng rng(attnx::pattern_seed(1));
  const attnx::Pattern A = attnx::make_pattern(spec, rng);
  for (const char* context : {"cli", "wasm", "explorer", "lab"})
    for (const auto& c : attnx::construction_infos()) {
      CAPTURE(context);
      CAPTURE(c.name);
      const std::string d = attnx::construction_default(context, "d", c.name);
      const std::string step = attnx::construction_default(context, "step", c.name);
      const std::string dmax = attnx::construction_default(context, "dmax", c.name);
      if (!c.uses_d) {  // moment: none of them applies
        CHECK(d.empty());
        CHECK(step.empty());
        CHECK(dmax.empty());
        continue;
      }
      CHECK((as_int(d) >= 1 && as_int(d) <= c.d_max));
      CHECK((as_int(step) >= 1 && as_int(step) <= as_int(dmax) && as_int(dmax) <= c.d_max));
      // The core accepts them (builds and searches at L = 16).
      attnx::ConstructionRequest r;
      r.construction = c.name;
      r.d = as_int(d);
      CHECK_NOTHROW(attnx::build_inputs(A, th::checked(r, tol)));
      attnx::MinDOptions opt;
      opt.step = as_int(step);
      opt.d_max = as_int(dmax);
      CHECK_NOTHROW(attnx::search_min_d(A, th::search(c.name, tol, opt, 1)));
      // Other options keep the context's default.
      CHECK(attnx::construction_default(context, "eps", c.name) == attnx::context_default(context, "eps"));
    }
}

TEST_CASE("lp's fallbacks are lp's own, where the context's would be refused") {
  // The explorer's d (1024) and the table's dmax (4096) are above lp's limit: the core refuses them.
  attnx::PatternSpec spec;
  spec.L = 16;
  attnx::Rng rng(attnx::pattern_seed(1));
  const attnx::Pattern A = attnx::make_pattern(spec, rng);
  attnx::ConstructionRequest r;
  r.construction = "lp";
  r.d = as_int(attnx::context_default("explorer", "d"));
  CHECK_THROWS_AS(attnx::build_inputs(A, th::checked(r, attnx::Tolerances{})), attnx::InvalidArgument);
  attnx::MinDOptions opt;  // dmax 4096
  CHECK_THROWS_WITH_AS(attnx::search_min_d(A, th::search("lp", attnx::Tolerances{}, opt, 1)),
                       "dmax must be an integer from 1 to 256 for construction lp (got 4096; each row's linear "
                       "program has d + 2 variables)", attnx::InvalidArgument);
  CHECK(attnx::construction_default("explorer", "d", "lp") == "32");
  CHECK(attnx::construction_default("cli", "d", "lp") == "32");
  CHECK(attnx::construction_default("explorer", "d", "jl") == "1024");
  CHECK(attnx::construction_default("cli", "d", "jl") == "512");
  CHECK(attnx::construction_default("lab", "step", "lp") == "1");
  CHECK(attnx::construction_default("lab", "dmax", "lp") == "256");
  CHECK(attnx::construction_default("lab", "dmax", "jl") == "4096");
}
