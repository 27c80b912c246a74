// attnx core: the `opt` construction of SPEC §10.1 (see construct_opt.hpp) and its registry record.
#include <attnx/construct_opt.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <attnx/bounds.hpp>
#include <attnx/construction.hpp>
#include <attnx/errors.hpp>

namespace attnx {

const OptSettings& opt_settings() {
  static const OptSettings s;
  return s;
}

namespace {

// From state s, steps until the built X passes SPEC §2 or `budget` steps are spent: the
// construction of the last state (X built and judged either way).
struct Attempt {
  OptConstruction built;
  bool success = false, cancelled = false;
};

Attempt attempt(const Pattern& A, const Tolerances& tol, double scale, OptState& s, int budget, bool with_report,
                const Progress& progress) {
  const OptTarget t = opt_target(A, tol);
  const OptSettings& set = opt_settings();
  const int end = s.steps + budget;
  Attempt a;
  for (;;) {
    const int left = std::max(0, end - s.steps);
    Progress inner;
    if (progress) inner = [&](double f) { return progress((double(budget - left) + f * left) / budget); };
    const OptOutcome o = opt_descend(t, scale, set, left, s, inner);
    a.built.steps = o.steps;
    a.built.penalty = o.penalty;
    if (o.cancelled) return a.cancelled = true, a;
    const bool over = o.plateau || s.steps >= end;  // the plateau rule or the budget ended the run
    if (o.passes || over) {
      const std::vector<double> X = opt_inputs(s, scale);
      a.built.c = evaluate_inputs(A, tol, X, s.D);
      a.success = a.built.c.metrics.success;
      if (a.success || over) {
        if (with_report) a.built.precision = precision_report(A, tol, X, s.D);
        return a;
      }
    }
    // §2 held on the method's float logits but not on the rounded X: one more step at least.
    opt_descend(t, scale, set, 1, s, nullptr, false);
  }
}

}  // namespace

OptConstruction construct_opt(const Pattern& A, const CheckedRequest& r, const BuildRun& run) {
  OptState s = opt_start(A.L, r->d, r->seed);
  Attempt a = attempt(A, r->tol, r->scale, s, opt_settings().max_steps, true, run.progress);
  if (a.cancelled) {
    a.built.c.L = A.L, a.built.c.d = r->d, a.built.c.cancelled = true;
    return a.built;
  }
  if (run.progress) run.progress(1.0);
  return std::move(a.built);
}

namespace {

// The search's running result: the D tried (checked), the smallest success and its bounds.
struct SearchState {
  MinDResult r;
  Bounds at_best;
  std::vector<double>* best_inputs = nullptr;  // the X of the smallest success, when asked
  bool record(const Attempt& a, const OptState& s, double scale) {
    r.checked.push_back(s.D);
    if (a.success && (r.d_min < 0 || s.D < r.d_min)) {
      r.d_min = s.D, at_best = a.built.c.bounds;
      if (best_inputs) *best_inputs = opt_inputs(s, scale);
    }
    return a.success;
  }
};

// The walk's first D over the floor D_Lambda: opt's D_min sits 3 to 5 times above it at the
// scales of SPEC §10.1's reference (measured at L = 64 to 1024, budgets 4 to 64), so the walk
// starts a little above and mostly walks down.
constexpr double kStartOverFloor = 4;
// A D that fails right after D + step succeeded in fewer steps than this gets a second start.
constexpr int kRetryBelow = 150;

}  // namespace

namespace {

// The search's progress: steps spent over a running estimate of the whole.
struct SearchProgress {
  const Progress& outer;
  double spent = 0, planned = 0;
  Progress part(int budget) {
    if (!outer) return nullptr;
    return [this, budget](double f) { return outer(std::min(0.99, (spent + f * budget) / planned)); };
  }
};

int round_up(double x, int step) { return static_cast<int>(std::ceil(x / step)) * step; }

// One fresh start at D (retry r: another start), recorded; true when its built X passed.
bool try_at(const Pattern& A, const CheckedRequest& req, int D, int retry, SearchState& st, SearchProgress& p,
            int* steps) {
  const int full = opt_settings().max_steps;
  p.planned = std::max(p.planned, p.spent + full);
  OptState s = opt_start(A.L, D, req->seed, retry);
  const Attempt a = attempt(A, req->tol, req->scale, s, full, false, p.part(full));
  if (a.cancelled) return st.r.cancelled = true, false;
  p.spent += s.steps;
  *steps = s.steps;
  return st.record(a, s, req->scale);
}

// Down from a success at D, one grid step at a time, to `stop` at the lowest: a fresh start at each
// D; a D that fails right after the one above succeeded quickly (in fewer than kRetryBelow steps:
// `steps`) gets one more fresh start.
void walk_down(const Pattern& A, const CheckedRequest& req, int D, int stop, SearchState& st, SearchProgress& p, int steps) {
  const int step = req->mind.step;
  for (; D - step >= stop && !st.r.cancelled; D -= step) {
    const int above = steps;
    if (try_at(A, req, D - step, 0, st, p, &steps)) continue;
    if (st.r.cancelled || above >= kRetryBelow || !try_at(A, req, D - step, 1, st, p, &steps)) return;
  }
}

}  // namespace

// The search (SPEC §10.1 leaves it open: success need not be monotone in D): a walk on the grid
// step, 2 step, ..., d_max from D0 = 4 D_Lambda + 1 rounded up to the grid (D_Lambda: the floor
// at the budget, §9.2), a fresh start at each D (its own seeded draw). When D0 fails the walk goes
// up by one, two, four, ... grid steps until a D succeeds (or d_max fails); from a success it goes
// down one grid step at a time until a D fails (walk_down: a quick success above earns a retry),
// never to a D that failed on the way up. d_min is the smallest D whose built X passed; every D
// tried is in `checked`, in order (a retried D twice).
MinDResult min_d_opt(const Pattern& A, const CheckedRequest& req, const BuildRun& run, std::vector<double>* x_at_d_min) {
  const double floor = bounds_of(A, req->tol.tau, 1, req->scale, -1).d_lambda;
  const int step = req->mind.step, top = req->mind.d_max / step * step;
  SearchState st;
  st.best_inputs = x_at_d_min;
  st.r.beta = beta_of(A, log_target(A, req->tol));
  st.r.d_star = d_star(st.r.beta, A.L, req->tol);
  const double start = kStartOverFloor * (std::isfinite(floor) ? floor : 1) + 1;
  int D = std::min(top, round_up(std::max(1.0, start), step)), steps = 0;
  SearchProgress p{run.progress};
  int stop = step;  // the walk down never goes below it (a D that failed on the way up stays failed)
  if (!try_at(A, req, D, 0, st, p, &steps)) {
    int failed = D, inc = step;
    for (D = 0; !st.r.cancelled && failed < top; failed = D, inc *= 2) {
      D = std::min(top, failed + inc);
      if (try_at(A, req, D, 0, st, p, &steps)) break;
    }
    stop = failed + step;
  }
  if (st.r.reached()) walk_down(A, req, D, stop, st, p, steps);
  if (st.r.cancelled) return st.r;
  st.r.bounds = st.r.reached() ? st.at_best : bounds_of(A, req->tol.tau, top, -1, -1);  // not reached: n and the bits floors
  if (run.progress) run.progress(1.0);
  return st.r;
}

namespace {

ConstructionInfo opt_info() {
  ConstructionInfo c;
  c.name = "opt", c.label = "Queries and keys searched together (§10.1)";
  c.d_max = kMaxOptD, c.explorer_d = 16, c.search_step = 1;
  c.params = {"d", "budget", "step", "dmax"};
  c.search = "a walk from four times the floor D_Λ at the budget, a fresh start at each D: up by one, two, four, "
             "... grid steps until one succeeds, then down one grid step at a time while that succeeds";
  c.dimension = "d";
  c.bits_floor = "bits_free_keys";
  c.precision_always = true;
  using K = ReportField::Kind;
  c.report = {{"steps", "optSteps", K::Count, ""}, {"penalty", "optPenalty", K::Real, ""},
              {"budget", "optBudget", K::Real, ""}};
  c.row_query = true;
  c.search_cost = 50;
  c.compared = false;
  c.kind_of_mark = "search";
  c.frontier_param = "budget";
  c.queries_title = "Q: s·u_i", c.queries_sub = "first D columns: unit rows, searched";
  c.keys_title = "K: s·v_j", c.keys_sub = "last D columns: unit rows, searched with the queries";
  c.summary = "Queries and keys searched together (§10.1): unit rows u_i, v_j moved by a first-order method "
              "until (R) and (Z) hold, with s² = Λ_max·√D so that no logit exceeds the budget Λ_max. A "
              "search, not a proof: its D is an upper bound on the fewest dimensions at that scale.";
  return c;
}

// Its limits: D up to kMaxOptD, and a budget above ln(1/tau) / 2: below it no X passes (Z), since
// a support logit at most Lambda must be ln(1/tau) above an off-support one at least -Lambda.
void opt_check(const ConstructionRequest& r, Purpose purpose, Problems& p) {
  const char* field = purpose == Purpose::Build ? "d" : "dmax";
  const int d = purpose == Purpose::Build ? r.d : r.mind.d_max;
  if (!p.has(field) && d > kMaxOptD)
    p.add(field, std::string(field) + " must be an integer from 1 to " + std::to_string(kMaxOptD) +
                     " for construction opt (got " + std::to_string(d) + "; each step costs L^2 D multiply-adds)");
  const double wall = -std::log(r.tol.tau) / 2;
  if (!p.has("budget") && !p.has("tau") && std::isfinite(r.scale) && r.scale <= wall)
    p.add("budget", "budget must be above ln(1/tau)/2 = " + fmt_num(wall) + " for construction opt (got " +
                       fmt_num(r.scale) + "; below it no logits within the budget can keep (Z))");
}

// Its state (U, V, Adam's moments, the transposed V and both gradients: 9 L x D floats), the L x L
// logits, then X in double and evaluate_inputs, then the precision report; the target and its rows.
std::uint64_t opt_bytes(const ConstructionRequest& r, Purpose purpose, int L, int k) {
  const int D = purpose == Purpose::Build ? r.d : r.mind.d_max;
  const std::uint64_t l = std::uint64_t(L), dd = std::uint64_t(D);
  const std::uint64_t descend = 2 * 36 * l * dd + 4 * l * l;  // the state kept while the next is tried
  const std::uint64_t judge = 16 * l * dd + std::max(evaluate_inputs_bytes(L, D), precision_phase_bytes(L, D));
  return estimate_pattern_bytes(L, k) + target_and_rows_bytes(L, k) + std::max(descend, 36 * l * dd + judge);
}

BuiltInputs opt_build(const Pattern& A, const CheckedRequest& r, const BuildRun& run) {
  OptConstruction o = construct_opt(A, r, run);
  BuiltInputs out;
  out.c = std::move(o.c);
  if (out.c.cancelled) return out;
  const std::vector<ReportField>& f = opt_kind().info.report;
  out.report = {{f[0], double(o.steps)}, {f[1], o.penalty}, {f[2], r->scale}};
  out.precision = o.precision;
  out.c.bounds.bits_per_number = bits_per_number(o.precision.bits, o.precision.exponent_bits);
  return out;
}

}  // namespace

const ConstructionKind& opt_kind() {
  static const ConstructionKind k = [] {
    ConstructionKind c;
    c.info = opt_info();
    c.check = opt_check;
    c.bytes = opt_bytes;
    c.search_remedy = "L or dmax";
    c.build = opt_build;
    c.search = [](const Pattern& A, const CheckedRequest& r, const BuildRun& run) { return min_d_opt(A, r, run); };
    return c;
  }();
  return k;
}

}  // namespace attnx
