// attnx core: the survey of every head (see head_survey.hpp): one head's target, its minimal d
// under lp and jl on the survey's grids.
#include <attnx/head_survey.hpp>

#include <algorithm>

#include <attnx/construction.hpp>
#include <attnx/errors.hpp>
#include <attnx/schema.hpp>
#include <attnx/size_text.hpp>

namespace attnx {

MinDOptions survey_grid(const ConstructionKind& construction, std::uint64_t max_bytes) {
  const ConstructionInfo& c = construction.info;
  MinDOptions m;  // the option table's defaults: step 16, d_max 4096
  m.step = static_cast<int>(option_info("step").def);
  m.d_max = static_cast<int>(option_info("dmax").def);
  if (c.search_step > 0) m.step = c.search_step;
  m.d_max = std::min(m.d_max, c.d_max);
  m.max_bytes = max_bytes;
  return m;
}

namespace {

// The survey's search of one construction: its grid, the survey's tolerances, seed and budget.
CheckedRequest survey_request(const ConstructionKind& construction, const SurveyOptions& opt) {
  ConstructionRequest r;
  r.construction = construction.info.name;
  r.tol = opt.tol;
  r.mind = survey_grid(construction, opt.head.max_bytes);
  r.seed = opt.seed;
  return check_request(r, Purpose::Search);
}

}  // namespace

std::uint64_t estimate_survey_head_bytes(int L, const SparsifyRule& rule) {
  const std::uint64_t l = static_cast<std::uint64_t>(L);
  const int k = rule.kind == RuleKind::TopK ? std::min(rule.k, L) : L;
  const std::uint64_t nnz = std::min<std::uint64_t>(l * static_cast<std::uint64_t>(k), kMaxNnz);
  const std::uint64_t held = 12 * nnz + 64 * l;  // the target and the description during the searches
  std::uint64_t most = estimate_import_head_bytes(L, nnz, false);
  for (const ConstructionKind* c : {&jl_kind(), &lp_kind()}) {
    ConstructionRequest r;
    r.mind = survey_grid(*c, 0);
    most = std::max(most, c->bytes(r, Purpose::Search, L, k) + held);
  }
  return most;
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
  const MinDResult a = search_min_d(h.target, survey_request(jl_kind(), opt), {part(0.0)});
  if (a.cancelled) return row.cancelled = true, row;
  const MinDResult b = search_min_d(h.target, survey_request(lp_kind(), opt), {part(0.5), nullptr, true, opt.rows});
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
