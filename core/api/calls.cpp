// attnx core: the JavaScript API's computing calls (see calls.hpp).
#include <attnx/calls.hpp>

#include <cmath>
#include <memory>

#include <attnx/calls_io.hpp>
#include <attnx/construction.hpp>
#include <attnx/errors.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/memory.hpp>
#include <attnx/schema.hpp>

namespace attnx {

namespace {

using Type = JsonValue::Type;

// The caller's callback, called at most every `every` of the work (and at 1), remembering
// whether it asked to stop.
struct Listener {
  Progress inner;
  double every = 0;
  double last = -1;
  bool stopped = false;

  Progress fn() {
    if (!inner) return nullptr;
    return [this](double f) {
      if (f < 1.0 && last >= 0 && f - last < every) return true;
      last = f;
      if (!inner(f)) stopped = true;
      return !stopped;
    };
  }
};

PatternStats stats_of(const Pattern& A) { return {A.L, A.k, A.max_col_count, A.in_class}; }

// Entry n of an array (JSON array or typed array) as a value.
JsonValue element(const JsonValue& a, std::size_t n) {
  return a.type == Type::Numbers ? JsonValue::of(a.nums[n]) : a.arr[n];
}

bool is_list(const JsonValue& a) { return a.type == Type::Array || a.type == Type::Numbers; }
std::size_t list_size(const JsonValue& a) {
  return a.type == Type::Numbers ? a.nums.size() : a.arr.size();
}

}  // namespace

ConstructCall construct_call(const JsonValue& opts, const Progress& progress, GramLadder& ladder) {
  const CallOptions o = read_call_options(opts, Call::Construct);
  ConstructCall r;
  r.params = call_params(o, Call::Construct);
  r.construction = o.construction;
  r.A = call_pattern(o);
  Listener every_chunk{progress};
  // A sliced construction (jl): X left out when asked; its images (views) are made from the
  // ladder's columns instead.
  const bool sliced = o.request->kind().info.sliced;
  r.b = build_inputs(r.A, *o.request, {every_chunk.fn(), &ladder, !o.omit_x});
  r.cancelled = r.b.c.cancelled;
  if (r.cancelled) return r;
  if (o.want_views) r.views = pool_views(r.A, r.b.c, o.views, sliced ? ladder.columns() : nullptr);
  if (o.omit_x) std::vector<float>().swap(r.b.c.X);
  if (o.omit_dense) {  // freed now: at L = 4096 they are 134 MB the caller would copy and not read
    FloatBuffer().swap(r.b.c.M);
    FloatBuffer().swap(r.b.c.logits);
  }
  if (sliced) r.columns_added = ladder.columns_added();
  return r;
}

PrecisionCall precision_call(const JsonValue& opts) {
  const CallOptions o = read_call_options(opts, Call::Construct);
  const Pattern A = call_pattern(o);
  const BuiltInputs b = build_inputs(A, o.request->with_precision(), {nullptr, nullptr, false});
  return {call_params(o, Call::Construct), o.construction, b.c.d, *b.precision, b.c.bounds};
}

MinDCall min_d_call(const JsonValue& opts, const Progress& progress) {
  const CallOptions o = read_call_options(opts, Call::MinD);
  const Pattern A = call_pattern(o);
  Listener l{progress, kCallProgressEvery};
  MinDCall r;
  r.params = call_params(o, Call::MinD);
  if (!o.request->kind().info.searchable)
    fail("construction", "construction " + o.construction + " has " + o.request->kind().info.search);
  r.m = search_min_d(A, *o.request, {l.fn()});
  r.stats = stats_of(A);
  r.cancelled = r.m.cancelled || l.stopped;
  return r;
}

SweepPointCall sweep_point_call(const JsonValue& opts, const Progress& progress) {
  const CallOptions o = read_call_options(opts, Call::SweepPoint);
  Listener l{progress, kCallProgressEvery};
  SweepPointCall r;
  r.params = call_params(o, Call::SweepPoint);
  r.p = sweep_point(call_sweep_options(o), o.spec.L, l.fn());
  r.cancelled = l.stopped;
  return r;
}

ByteEstimate estimate_call(const JsonValue& opts) {
  const CallOptions o = read_call_options(opts, Call::Estimate);
  const int k = row_count_bound(o.spec, o.triplets);
  // jl's: the same sums construct and min_d check before they allocate (construction.hpp).
  ConstructionRequest r;
  r.d = o.d;
  r.mind = o.mind;
  const ConstructionKind& jl = jl_kind();
  return {static_cast<double>(jl.bytes(r, Purpose::Build, o.spec.L, k)),
          static_cast<double>(jl.bytes(r, Purpose::Search, o.spec.L, k)), static_cast<double>(o.mind.max_bytes)};
}

std::vector<int> read_d_list(const JsonValue& a, const char* field) {
  if (!is_list(a))
    fail(field, std::string(field) + " must be an array of d values (null = not reached)");
  std::vector<int> d(list_size(a));
  for (std::size_t q = 0; q < d.size(); ++q) {
    const JsonValue x = element(a, q);
    if (absent(&x)) { d[q] = -1; continue; }
    const double v = x.type == Type::Number ? x.num : NAN;
    if (!std::isfinite(v) || v != std::floor(v) || v > kMaxD)
      fail(field, std::string(field) + "[" + std::to_string(q) +
                      "] must be an integer d from 1 to " + std::to_string(kMaxD) +
                      " or null (got " + fmt_num(v) + ")");
    d[q] = v < 0 ? -1 : static_cast<int>(v);
  }
  return d;
}

FitsCall fits_call(const JsonValue& Ls, const JsonValue& ds) {
  const std::vector<double> L = read_number_list(Ls, "Ls");
  if (!is_list(ds) || list_size(ds) != L.size())
    fail("ds", "ds must be an array as long as Ls (null = not reached)");
  std::vector<double> x, y;
  for (std::size_t n = 0; n < L.size(); ++n) {
    const JsonValue d = element(ds, n);
    if (d.type != Type::Number || !(d.num > 0) || !std::isfinite(d.num)) continue;
    x.push_back(L[n]);
    y.push_back(d.num);
  }
  return {fit_log(x, y), fit_power(x, y)};
}

JsonValue median_call(const JsonValue& ds) {
  const double m = median_d(read_d_list(ds, "ds"));
  return JsonValue::count_or_null(m);
}

JsonValue quantile_call(const JsonValue& ds, const JsonValue& delta) {
  require_option("delta", delta.type == Type::Number ? delta.num : NAN);
  return JsonValue::count_or_null(quantile_d(read_d_list(ds, "ds"), delta.num));
}

}  // namespace attnx
