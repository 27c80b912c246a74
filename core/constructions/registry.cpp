// attnx core: the registry of constructions and the one check of a request (see construction.hpp).
// The only list of constructions is constructions() below: a new one is its own files and a line.
#include <attnx/construction.hpp>

#include <algorithm>
#include <stdexcept>

#include <attnx/errors.hpp>
#include <attnx/schema.hpp>

namespace attnx {

const std::vector<const ConstructionKind*>& constructions() {
  static const std::vector<const ConstructionKind*> v = {&jl_kind(), &lp_kind(), &moment_kind(), &opt_kind()};
  return v;
}

const std::vector<std::string>& construction_names() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> names;
    for (const ConstructionKind* k : constructions()) names.push_back(k->info.name);
    return names;
  }();
  return v;
}

const std::vector<ConstructionInfo>& construction_infos() {
  static const std::vector<ConstructionInfo> v = [] {
    std::vector<ConstructionInfo> infos;
    for (const ConstructionKind* k : constructions()) infos.push_back(k->info);
    return infos;
  }();
  return v;
}

namespace {

const ConstructionKind* find_kind(const std::string& name) {
  for (const ConstructionKind* k : constructions())
    if (k->info.name == name) return k;
  return nullptr;
}

std::string construction_refusal(const std::string& name) {
  return "construction must be " + option_range_text(option_info("construction")) + " (got \"" +
         name.substr(0, 40) + (name.size() > 40 ? "...\"" : "\"") + ")";
}

bool has_param(const ConstructionInfo& c, const char* name) {
  return std::find(c.params.begin(), c.params.end(), name) != c.params.end();
}

// The fields every request has, whatever its construction.
void check_common(const ConstructionRequest& r, Problems& p) {
  p.check([&] { require_option("eps", r.tol.eps); });
  p.check([&] { require_option("tau", r.tol.tau); });
  p.check([&] { require_option("delta", r.tol.delta); });
  p.check([&] { require_option("maxBytes", static_cast<double>(r.mind.max_bytes)); });
  p.check([&] { require_int("threads", r.threads, 1, kMaxThreads); });
}

// The fields of construction c that the purpose uses: d or the grid, and its own parameters.
void check_own(const ConstructionKind& c, const ConstructionRequest& r, Purpose purpose, Problems& p) {
  const ConstructionInfo& info = c.info;
  if (purpose == Purpose::Build && info.uses_d) p.check([&] { require_option("d", r.d); });
  if (purpose == Purpose::Search && info.searchable) p.check([&] { validate(r.mind); });
  if (purpose == Purpose::Search && !info.searchable) p.check([&] { require_gram_kernel_runs(r.mind.gram_kernel); });
  if (has_param(info, "box")) p.check([&] { require_option("box", r.box); });
  if (has_param(info, "budget")) p.check([&] { require_option("budget", r.scale); });
  if (!has_param(info, "projection") && r.mind.projection != ProjectionKind::Gaussian)
    p.add("projection", std::string("projection ") + projection_name(r.mind.projection) +
                            " applies only to construction jl (got construction " + info.name +
                            "; its keys are not the projection P of §3)");
  if (c.check) c.check(r, purpose, p);
}

}  // namespace

int chosen_dimension(const ConstructionRequest& r, int) { return r.d; }

const ConstructionKind& construction_kind(const std::string& name) {
  if (const ConstructionKind* k = find_kind(name)) return *k;
  throw InvalidArgument("construction", construction_refusal(name));
}

void check_request_fields(const ConstructionRequest& r, Purpose purpose, Problems& problems) {
  const ConstructionKind* k = find_kind(r.construction);
  if (!k) problems.add("construction", construction_refusal(r.construction));
  check_common(r, problems);
  if (k) check_own(*k, r, purpose, problems);
}

CheckedRequest check_request(const ConstructionRequest& r, Purpose purpose) {
  Problems problems;
  check_request_fields(r, purpose, problems);
  problems.throw_if_any();
  return CheckedRequest(construction_kind(r.construction), r, purpose);
}

CheckedRequest CheckedRequest::at_d(int d) const {
  if (d < 1 || d > kind_->info.d_max) throw std::logic_error("attnx: at_d outside the construction's range");
  CheckedRequest c = *this;
  c.r_.d = d;
  return c;
}

CheckedRequest CheckedRequest::with_precision() const {
  CheckedRequest c = *this;
  c.r_.precision = true;
  return c;
}

std::uint64_t request_bytes(const CheckedRequest& r, int L, int k) {
  return r.kind().bytes(r.get(), r.purpose(), L, k);
}

void check_request_budget(const CheckedRequest& r, int L, int k) {
  const ConstructionKind& c = r.kind();
  const bool build = r.purpose() == Purpose::Build;
  const char* what = build ? "construct" : c.search_what;
  check_budget(what, request_bytes(r, L, k), r->mind.max_bytes, build ? c.build_remedy : c.search_remedy);
}

BuiltInputs build_inputs(const Pattern& A, const CheckedRequest& r, const BuildRun& run) {
  if (r.purpose() != Purpose::Build) throw std::logic_error("attnx: build_inputs of a search request");
  check_request_budget(r, A.L, A.k);
  return r.kind().build(A, r, run);
}

MinDResult search_min_d(const Pattern& A, const CheckedRequest& r, const BuildRun& run) {
  if (r.purpose() != Purpose::Search) throw std::logic_error("attnx: search_min_d of a build request");
  check_request_budget(r, A.L, A.k);
  return r.kind().search(A, r, run);
}

}  // namespace attnx
