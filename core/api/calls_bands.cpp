// attnx core: construct's Gram matrix summed in bands across workers (see calls_bands.hpp).
#include <attnx/calls_bands.hpp>

#include <attnx/construction.hpp>

#include <cmath>
#include <string>

#include <attnx/construct.hpp>
#include <attnx/errors.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/memory.hpp>
#include <attnx/schema.hpp>

namespace attnx {

namespace {

constexpr int kMaxWorkers = 256;
constexpr int kMaxColumn = 1 << 30;  // band columns read as integers up to this; the ladder checks L

// Member k of band, an integer in [lo, hi] (named "gram_band.k" in the error).
int band_int(const JsonValue& band, const char* k, int lo, int hi) {
  const JsonValue* v = band.find(k);
  const double x = v && v->type == JsonValue::Type::Number ? v->num : NAN;
  if (!(x >= lo && x <= hi && x == std::floor(x)))
    fail("gram_band", std::string("gram_band.") + k + " must be an integer from " +
                          std::to_string(lo) + " to " + std::to_string(hi));
  return static_cast<int>(x);
}

// band.rungs: an array (or typed array) of integers in [1, d]; absent or null: none. `upper` names
// d in the error.
std::vector<int> band_rungs(const JsonValue& band, int d, const std::string& upper) {
  const JsonValue* v = band.find("rungs");
  std::vector<double> xs;
  if (v && v->type == JsonValue::Type::Numbers) xs = v->nums;
  else if (v && v->type == JsonValue::Type::Array)
    for (const JsonValue& r : v->arr) xs.push_back(r.type == JsonValue::Type::Number ? r.num : NAN);
  else if (v && v->type != JsonValue::Type::Null) xs.push_back(NAN);
  std::vector<int> out;
  for (double x : xs) {
    if (!(x >= 1 && x <= d && x == std::floor(x)))
      fail("gram_band", "gram_band.rungs must be integers from 1 to " + upper);
    out.push_back(static_cast<int>(x));
  }
  return out;
}

}  // namespace

GramPlan gram_plan_call(const JsonValue& opts, const JsonValue& workers_value, GramLadder& ladder) {
  const double w = workers_value.type == JsonValue::Type::Number ? workers_value.num : NAN;
  if (!(w >= 1 && w <= kMaxWorkers && w == std::floor(w)))
    fail("workers", "workers must be an integer from 1 to " + std::to_string(kMaxWorkers));
  const int workers = static_cast<int>(w);
  const CallOptions o = read_call_options(opts, Call::Construct);
  GramPlan p;
  if (!o.request->kind().info.sliced) return p;
  p.L = o.spec.L;  // the pattern's L (call_pattern), also for custom patterns
  p.d = o.d;
  const std::uint64_t seed = projection_seed(o.seed);
  if (ladder.bands_begun(p.L, seed, o.d, o.mind.projection)) {  // a stopped construct's
    const Pattern A = call_pattern(o);  // its budget as construct checks it, before going on
    check_request_budget(*o.request, A.L, A.k);
    p.from = ladder.band_from();
    p.edges = ladder.band_edges();
    p.rungs = ladder.band_rungs();
    p.split = p.resumed = true;
    return p;
  }
  p.from = ladder.start_column(p.L, seed, o.d, o.mind.projection);
  p.edges = gram_band_edges(p.L, p.from, o.d, workers);
  if (p.edges.size() < 3) return p;  // the common case: no pattern built, nothing changed
  const Pattern A = call_pattern(o);
  check_request_budget(*o.request, A.L, A.k);  // as construct checks it
  // This worker makes construct's work ahead (gram_ahead_call) while the helpers finish.
  p.edges = gram_band_edges(p.L, p.from, o.d, workers, construct_ahead_macs(A.L, A.k, o.d));
  // construct()'s rung cap, so that the bands keep the rungs construct would.
  const std::uint64_t need = estimate_pattern_bytes(A.L, A.k) + estimate_construct_bytes(A.L, o.d, A.k);
  ladder.set_rung_cap(o.mind.max_bytes > need ? o.mind.max_bytes - need : 0, o.d);
  p.from = ladder.begin_bands(A.L, seed, o.d, o.mind.projection, p.edges);
  p.rungs = ladder.band_rungs();
  p.split = true;
  return p;
}

std::vector<float> gram_band_start_call(GramLadder& ladder, const JsonValue& band) {
  return ladder.band_start(band_int(band, "c0", 0, kMaxColumn), band_int(band, "c1", 0, kMaxColumn));
}

GramBand gram_band_call(const JsonValue& opts, const JsonValue& band, std::vector<float> start,
                        const Progress& progress) {
  const CallOptions o = read_call_options(opts, Call::Construct);
  GramBandTask t;
  t.L = o.spec.L;  // the pattern's L (call_pattern)
  t.seed = projection_seed(o.seed);
  t.kind = o.mind.projection;
  t.d = o.d;
  t.from = band_int(band, "from", 0, o.d);
  t.c0 = band_int(band, "c0", 0, t.L);
  t.c1 = band_int(band, "c1", 0, t.L);
  t.rungs = band_rungs(band, o.d, "d = " + std::to_string(o.d));
  return sum_gram_band(t, std::move(start), progress);
}

bool gram_home_band_call(GramLadder& ladder, const JsonValue& band, const Progress& progress) {
  return ladder.sum_band(band_int(band, "c0", 0, kMaxColumn), band_int(band, "c1", 0, kMaxColumn), progress);
}

void gram_adopt_call(GramLadder& ladder, const JsonValue& band, std::size_t at_d_size, std::size_t rungs_size,
                     const std::function<void(float*, std::size_t, std::size_t)>& read) {
  ladder.adopt_band_by(band_int(band, "c0", 0, kMaxColumn), band_int(band, "c1", 0, kMaxColumn), at_d_size,
                       rungs_size, read);
}

bool gram_adopt_rungs_call(GramLadder& ladder, const JsonValue& band, std::size_t rungs_size,
                           const std::function<void(float*, std::size_t, std::size_t)>& read) {
  return ladder.adopt_band_rungs_by(band_int(band, "c0", 0, kMaxColumn), band_int(band, "c1", 0, kMaxColumn),
                                    band_rungs(band, kMaxColumn, "the band sum's d"), rungs_size, read);
}

bool gram_finish_call(GramLadder& ladder) { return ladder.finish_bands(); }

bool gram_ahead_call(const JsonValue& opts, GramLadder& ladder) {
  const CallOptions o = read_call_options(opts, Call::Construct);
  if (!o.request->kind().info.sliced) return false;
  return construct_ahead(call_pattern(o), *o.request, ladder);
}

}  // namespace attnx
