// attnx core: the survey of every head (see head_survey.hpp): one head's target, its minimal d
// under lp and jl on the survey's grids.
#include <attnx/head_survey.hpp>

#include <algorithm>

#include <attnx/build_inputs.hpp>
#include <attnx/errors.hpp>
#include <attnx/schema.hpp>
#include <attnx/size_text.hpp>

namespace attnx {

MinDOptions survey_grid(const std::string& construction, std::uint64_t max_bytes) {
  require_construction(construction);
  MinDOptions m;  // the option table's defaults: step 16, d_max 4096
  m.step = static_cast<int>(option_info("step").def);
  m.d_max = static_cast<int>(option_info("dmax").def);
  for (const ConstructionInfo& c : construction_infos())
    if (c.name == construction) {
      if (c.search_step > 0) m.step = c.search_step;
      m.d_max = std::min(m.d_max, c.d_max);
    }
  m.max_bytes = max_bytes;
  return m;
}

std::uint64_t estimate_survey_head_bytes(int L, const SparsifyRule& rule) {
  const std::uint64_t l = static_cast<std::uint64_t>(L);
  const int k = rule.kind == RuleKind::TopK ? std::min(rule.k, L) : L;
  const std::uint64_t nnz = std::min<std::uint64_t>(l * static_cast<std::uint64_t>(k), kMaxNnz);
  const MinDOptions jl = survey_grid("jl", 0), lp = survey_grid("lp", 0);
  const std::uint64_t held = 12 * nnz + 64 * l;  // the target and the description during the searches
  return std::max({estimate_import_head_bytes(L, nnz, false), estimate_mind_bytes(L, jl.step, k) + held,
                   estimate_search_bytes("lp", L, k, lp.step, lp.d_max) + held});
}

std::uint64_t import_default_max_bytes() {
  const std::uint64_t l = static_cast<std::uint64_t>(kMaxImportL);
  const std::uint64_t file = 8 * l * l + 128;  // float64 values and a .npy header
  const std::uint64_t need = estimate_attention_bytes(file, l * l, 0) +
                             estimate_survey_head_bytes(kMaxImportL, SparsifyRule{RuleKind::TopK, kMaxImportL});
  return (need + kMiB - 1) / kMiB * kMiB;
}

SurveyRow survey_head(const float* values, int L, const SurveyOptions& opt, const Progress& progress) {
  SurveyRow row;
  const HeadImport h = import_head(values, L, opt.head);
  row.description = h.description;
  auto part = [&](double lo) -> Progress {
    if (!progress) return nullptr;
    return [&progress, lo](double f) { return progress(lo + f / 2); };
  };
  const MinDOptions jl = survey_grid("jl", opt.head.max_bytes), lp = survey_grid("lp", opt.head.max_bytes);
  const MinDResult a = min_d_of("jl", h.target, opt.tol, jl, opt.seed, kDefaultLpBox, part(0.0));
  if (a.cancelled) return row.cancelled = true, row;
  const MinDResult b = min_d_of("lp", h.target, opt.tol, lp, opt.seed, kDefaultLpBox, part(0.5), opt.rows);
  if (b.cancelled) return row.cancelled = true, row;
  row.jl_d_min = a.reached() ? a.d_min : -1;
  row.lp_d_min = b.reached() ? b.d_min : -1;
  if (progress) progress(1.0);
  return row;
}

SurveyRow survey_file_head(const AttentionArray& a, int layer, int head, const SurveyOptions& opt,
                           const std::string& name, const Progress& progress) {
  require_head_index(a, layer, head, name);
  SurveyRow row = in_file_head(a, layer, head, name, [&] { return survey_head(a.head(layer, head), a.L, opt, progress); });
  row.layer = layer;
  row.head = head;
  return row;
}

std::vector<int> attention_shape(const AttentionArray& a) {
  std::vector<int> s;
  if (a.rank == 4) s.push_back(a.layers);
  if (a.rank >= 3) s.push_back(a.heads);
  s.push_back(a.L);
  s.push_back(a.L);
  return s;
}

}  // namespace attnx
