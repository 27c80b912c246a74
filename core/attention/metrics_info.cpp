// attnx core: the metrics' meanings (metrics_info.hpp).
#include <attnx/metrics_info.hpp>

#include <stdexcept>

namespace attnx {

const std::vector<MetricInfo>& metric_infos() {
  static const std::vector<MetricInfo> v = {
      {"success", "", "success", "Both conditions hold in every row: (R) ρ ≤ ε and (Z) ζ ≤ τ."},
      {"rho", "ρ", "ratio error",
       "Worst row spread of ln(M_ij/M_ij′) − ln(A_ij/A_ij′) over the support; (R) needs ρ ≤ ε."},
      {"zeta", "ζ", "zero ratio",
       "Largest M_ij/M_ij′ with j off the support and j′ on it; (Z) needs ζ ≤ τ."},
      {"lambda", "λ", "leaked mass",
       "Largest attention mass a row puts off its support; not part of the test, and it grows "
       "with L."},
      {"k", "k", "k (row bound)", "Largest number of nonzeros in a row of A."},
      {"maxColCount", "", "max column count",
       "Largest number of nonzeros in a column; the theorem's class needs it at most k."},
      {"beta", "β", "β = max‖B_i‖₂",
       "Largest row norm of the log-target B; the projection error of row i scales like "
       "‖B_i‖/√d."},
      {"dStar", "d*", "d*(L)",
       "d* = 16β²·ln(2L²/δ)/ε² is a heuristic sufficient hidden size (Gaussian tail + union "
       "bound), linear in ln L."},
      {"inputNorm", "", "input norm max‖X_i‖₂",
       "The largest row of X. Logits are differences of numbers up to its square: the larger, "
       "the more digits they need."},
      {"fp32", "", "float32",
       "(R) and (Z) with X and the logits in float32, as on a GPU (24 significand bits)."},
      {"fp64", "", "float64", "(R) and (Z) with X and the logits in float64 (53 bits)."},
      {"bits", "", "bits(X)",
       "The fewest significand bits of X that still pass, logits in float64."},
      {"tMin", "t*", "smallest margin t*",
       "Min over rows of the LP's optimal margin; a row's LP is feasible (its query exists at "
       "this d) when t* > 0."},
      {"feasibleRows", "", "feasible rows", "Rows whose linear program has t* > 0."},
      {"lpIterations", "", "solver iterations per row",
       "Interior-point iterations of each row's LP, on average."},
      {"lpIterationsMax", "", "most solver iterations",
       "The most interior-point iterations any row's LP took."},
      {"lpConverged", "", "every LP converged", "Whether every row's interior-point solver converged."},
      {"optSteps", "", "descent steps", "First-order steps opt took at this D (SPEC 10.1)."},
      {"optPenalty", "P", "penalty at the end",
       "The squared hinge penalty P(U, V) of SPEC 10.1 when opt stopped; 0 means every margin holds."},
      {"optBudget", "Λ_max", "logit-scale budget",
       "No logit exceeds it: ‖Q_i‖·‖K_j‖/√D ≤ Λ_max for every i, j by construction."},
      {"row:margin", "t*_i", "LP margin",
       "Row i's optimal margin: positive when a query at this d meets (R) and (Z) for the row."},
      {"row:iterations", "", "solver iterations", "Interior-point iterations of row i's LP."},
      {"row:lambda", "λ_i", "§8.3 multiplier",
       "How far row i's polynomial is pushed down off its support."},
  };
  return v;
}

const MetricInfo& metric_info(const std::string& key) {
  for (const auto& m : metric_infos())
    if (m.key == key) return m;
  throw std::logic_error("attnx: no metric named " + key);
}

}  // namespace attnx
