// attnx core: the `lp` construction of SPEC §8.2 (see construct_lp.hpp) and its registry record.
#include <attnx/construct_lp.hpp>

#include <attnx/construction.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>

#include <attnx/errors.hpp>
#include <attnx/inputs.hpp>
#include <attnx/memory.hpp>
#include <attnx/rng.hpp>
#include <attnx/schema.hpp>

namespace attnx {

namespace {

// The keys of §3 for (L, d, seed): P's first d columns (nested draws), as rows scaled by 1/sqrt(d).
std::vector<float> lp_keys(int L, int d, std::uint64_t seed) {
  std::vector<float> P(static_cast<std::size_t>(L) * d);
  Rng rng(projection_seed(seed));
  draw_projection_columns(rng, L, d, P.data());
  return scaled_projection_rows(P.data(), L, d);
}

// Solves the rows and builds X (progress as construct_lp; per row only without for_each). With
// stop_infeasible, stops once a row's LP is infeasible (c.X incomplete, nothing evaluated;
// *stopped = the first infeasible row found, else -1). for_each (optional) runs the independent
// rows, e.g. on threads.
LpConstruction build_lp(const Pattern& A, const Tolerances& tol, int d, std::uint64_t seed, double box,
                        const Progress& progress, bool stop_infeasible, int* stopped,
                        std::vector<double>* inputs, const ForEachRow& for_each) {
  LpConstruction out;
  Construction& c = out.c;
  c.L = A.L;
  c.d = d;
  c.B = log_target(A, tol);
  const std::size_t l = static_cast<std::size_t>(A.L), dd = static_cast<std::size_t>(d);
  const std::vector<float> K = lp_keys(A.L, d, seed);
  std::vector<LpRow> rows(l);
  std::atomic<bool> stop{false};
  auto body = [&](int i) {
    if (stop_infeasible && stop.load()) return;
    rows[i] = solve_row(A, i, K.data(), d, tol, box, stop_infeasible);  // stops on a relaxed t <= 0
    if (stop_infeasible && !(rows[i].t > 0)) stop = true;
  };
  if (for_each) {
    for_each(A.L, body);
  } else {
    for (int i = 0; i < A.L && !stop.load(); ++i) {
      if (progress && !progress(double(i) / A.L)) {
        c.cancelled = true;
        return out;
      }
      body(i);
    }
  }
  if (stop.load()) {
    for (std::size_t i = 0; i < l && *stopped < 0; ++i)
      if (!rows[i].q.empty() && !(rows[i].t > 0)) *stopped = static_cast<int>(i);
    return out;
  }
  out.lp.margin.assign(l, 0.0);
  out.lp.iterations.assign(l, 0);
  std::vector<double> X(l * 2 * dd, 0.0);
  const double sqrt_d = std::sqrt(double(d));
  for (std::size_t i = 0; i < l; ++i) {
    const LpRow& r = rows[i];
    out.lp.margin[i] = r.t;
    out.lp.iterations[i] = r.iterations;
    out.lp.feasible_rows += r.t > 0;
    out.lp.all_converged = out.lp.all_converged && r.converged;
    double* x = X.data() + i * 2 * dd;
    for (std::size_t t = 0; t < dd; ++t) x[t] = sqrt_d * r.q[t];
    std::copy(K.begin() + i * dd, K.begin() + (i + 1) * dd, x + dd);
  }
  c = evaluate_inputs(A, tol, X, d);
  if (inputs) *inputs = std::move(X);
  return out;
}

}  // namespace

namespace {

void require_lp_d(const char* field, int d) {
  if (d > kMaxLpD)
    fail(field, std::string(field) + " must be an integer from 1 to " + std::to_string(kMaxLpD) +
                    " for construction lp (got " + std::to_string(d) + "; each row's linear program has d + 2 "
                    "variables)");
}

// The bounds of the lp inputs at d when they succeed (lp_succeeds), nothing otherwise. hard (may
// be null): rows found infeasible at other hidden sizes, most recent first; they are solved first
// (a failing d usually costs one row's LP), and the row this d stops at joins them at the front.
std::optional<Bounds> lp_success(const Pattern& A, const Tolerances& tol, int d, std::uint64_t seed, double box,
                                 const ForEachRow& for_each, std::vector<int>* hard = nullptr) {
  if (hard && !hard->empty()) {
    const std::vector<float> K = lp_keys(A.L, d, seed);
    for (std::size_t n = 0; n < hard->size(); ++n)
      if (!(solve_row(A, (*hard)[n], K.data(), d, tol, box, true).t > 0)) {
        std::rotate(hard->begin(), hard->begin() + static_cast<std::ptrdiff_t>(n),
                    hard->begin() + static_cast<std::ptrdiff_t>(n) + 1);
        return std::nullopt;
      }
  }
  int stopped = -1;
  const LpConstruction r = build_lp(A, tol, d, seed, box, nullptr, true, &stopped, nullptr, for_each);
  if (hard && stopped >= 0) hard->insert(hard->begin(), stopped);
  if (stopped >= 0 || !r.c.metrics.success) return std::nullopt;
  return r.c.bounds;
}

}  // namespace

LpConstruction construct_lp(const Pattern& A, const CheckedRequest& r, const BuildRun& run) {
  std::vector<double> X;
  int stopped = -1;
  LpConstruction out = build_lp(A, r->tol, r->d, r->seed, r->box, run.progress, false, &stopped, &X, run.for_each);
  if (out.c.cancelled) return out;
  out.precision = precision_report(A, r->tol, X, r->d);
  if (run.progress) run.progress(1.0);
  return out;
}

bool lp_succeeds(const Pattern& A, const Tolerances& tol, int d, std::uint64_t seed, double box,
                 const ForEachRow& for_each) {
  return lp_success(A, tol, d, seed, box, for_each).has_value();
}

MinDResult min_d_lp(const Pattern& A, const CheckedRequest& req, const BuildRun& run) {
  const Tolerances& tol = req->tol;
  const MinDOptions& opt = req->mind;
  const std::uint64_t seed = req->seed;
  const double box = req->box;
  const Progress& progress = run.progress;
  const ForEachRow& for_each = run.for_each;
  MinDResult r;
  r.beta = beta_of(A, log_target(A, tol));  // the target's beta and d*, as min_d reports them
  r.d_star = d_star(r.beta, A.L, tol);
  const int top = opt.d_max / opt.step;  // grid points k = 1..top, d = k * step
  std::vector<int> hard;  // rows that failed at smaller d, most recent first
  for (int k = 1; k <= top; ++k) {
    if (progress && !progress(std::min(0.99, double(k - 1) / top))) {
      r.cancelled = true;
      return r;
    }
    r.checked.push_back(k * opt.step);
    const std::optional<Bounds> b = lp_success(A, tol, k * opt.step, seed, box, for_each, &hard);
    if (b) {
      r.d_min = k * opt.step;
      r.bounds = *b;
      break;
    }
  }
  if (!r.reached()) r.bounds = bounds_of(A, tol.tau, opt.d_max, -1, -1);  // n and the bits floors only
  if (progress) progress(1.0);
  return r;
}

namespace {

ConstructionInfo lp_info() {
  ConstructionInfo c;
  c.name = "lp", c.label = "Optimal queries, same keys (LP, §8.2)";
  c.d_max = kMaxLpD, c.explorer_d = 32, c.search_step = 1;
  c.params = {"d", "box", "step", "dmax"};
  c.bisect = true;
  c.search = "the grid in ascending order, each d solved first on the rows infeasible at a smaller d (so only "
             "d_min pays for every row)";
  c.dimension = "d";
  c.bits_floor = "bits_fixed_keys";
  c.precision_always = true;
  using K = ReportField::Kind;
  c.report = {{"feasible_rows", "feasibleRows", K::Count, "allRows"}, {"margin_min", "tMin", K::Real, "positive"},
              {"iterations_mean", "lpIterations", K::Real, ""}, {"iterations_max", "lpIterationsMax", K::Count, ""},
              {"converged", "lpConverged", K::Flag, "set"}};
  c.row_report = {"margin", "iterations"};
  c.row_query = true;
  c.row_threads = true;
  c.search_cost = 5;
  c.kind_of_mark = "construction";
  c.frontier_param = "box";
  c.queries_title = "Q: LP queries √d·q_i", c.queries_sub = "first d columns: one linear program per row";
  c.keys_title = "K = P", c.keys_sub = "last d columns: the same random keys as jl";
  c.summary = "Optimal queries (§8.2): the same keys K = P, and for each row the query q_i of "
              "a linear program that maximises the margin t by which (R) and (Z) hold. Same "
              "weights, far fewer dimensions.";
  return c;
}

void lp_check(const ConstructionRequest& r, Purpose purpose, Problems& p) {
  if (purpose == Purpose::Build && !p.has("d")) p.check([&] { require_lp_d("d", r.d); });
  if (purpose == Purpose::Search && !p.has("dmax")) p.check([&] { require_lp_d("dmax", r.mind.d_max); });
}

// One row's linear program while it is solved: n = d + 2 variables; its rows (2 per support
// entry, the working set of off-support columns, t, the box) as G, the solver's copy of the dense
// ones and their scaled copy, the normal matrix and its factor. The working set starts at 2n
// columns and grows by n per round; 4n (or L) is what the rows of random targets reach.
std::uint64_t lp_row_bytes(std::uint64_t l, std::uint64_t d, std::uint64_t k) {
  const std::uint64_t n = d + 2, work = std::min(l, 4 * n), dense = 2 * k + work + 1;
  return 8 * n * (3 * dense + 2 * d) + 16 * n * n + 64 * (dense + 2 * d);
}

// build_lp up to its evaluation: the keys (and P while they are scaled), the rows' queries, the
// linear programs being solved; then X in double and evaluate_inputs with the keys and queries.
std::uint64_t lp_build_bytes(int L, int d, int k, int threads) {
  const std::uint64_t l = std::uint64_t(L), dd = std::uint64_t(d), keys = 4 * l * dd, queries = l * (8 * dd + 96);
  const std::uint64_t solve = keys + std::max(4 * l * dd, queries + std::uint64_t(std::max(1, threads)) * lp_row_bytes(l, dd, std::uint64_t(k)));
  const std::uint64_t evaluate = keys + queries + 16 * l * dd + evaluate_inputs_bytes(L, d);
  return std::max(solve, evaluate);
}

std::uint64_t lp_bytes(const ConstructionRequest& r, Purpose purpose, int L, int k) {
  const std::uint64_t base = estimate_pattern_bytes(L, k) + target_and_rows_bytes(L, k);
  if (purpose == Purpose::Search) return base + lp_build_bytes(L, r.mind.d_max, k, r.threads);
  const std::uint64_t precision = 16 * std::uint64_t(L) * std::uint64_t(r.d) + precision_phase_bytes(L, r.d);
  return base + std::max(lp_build_bytes(L, r.d, k, r.threads), precision);
}

BuiltInputs lp_build(const Pattern& A, const CheckedRequest& r, const BuildRun& run) {
  LpConstruction lp = construct_lp(A, r, run);
  BuiltInputs out;
  out.c = std::move(lp.c);
  if (out.c.cancelled) return out;
  const LpReport& rep = lp.lp;
  double t_min = rep.margin.empty() ? 0 : rep.margin[0], it_sum = 0;
  int it_max = 0;
  for (std::size_t i = 0; i < rep.margin.size(); ++i) {
    t_min = std::min(t_min, rep.margin[i]);
    it_max = std::max(it_max, rep.iterations[i]);
    it_sum += rep.iterations[i];
  }
  const std::vector<ReportField>& f = lp_kind().info.report;
  out.report = {{f[0], double(rep.feasible_rows)}, {f[1], t_min},
                {f[2], rep.margin.empty() ? 0.0 : it_sum / double(rep.margin.size())},
                {f[3], double(it_max)}, {f[4], rep.all_converged ? 1.0 : 0.0}};
  out.rows = {{"margin", rep.margin, "margins"},
              {"iterations", std::vector<double>(rep.iterations.begin(), rep.iterations.end()), ""}};
  out.precision = lp.precision;
  out.c.bounds.bits_per_number = bits_per_number(lp.precision.bits, lp.precision.exponent_bits);
  return out;
}

MinDResult lp_search(const Pattern& A, const CheckedRequest& r, const BuildRun& run) { return min_d_lp(A, r, run); }

}  // namespace

const ConstructionKind& lp_kind() {
  static const ConstructionKind k = [] {
    ConstructionKind c;
    c.info = lp_info();
    c.check = lp_check;
    c.bytes = lp_bytes;
    c.search_remedy = "L or dmax";
    c.build = lp_build;
    c.search = lp_search;
    return c;
  }();
  return k;
}

}  // namespace attnx
