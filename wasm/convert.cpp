// attnx wasm: conversions between JS values and the core's types (see convert.hpp).
#include "convert.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <new>
#include <stdexcept>

#include <attnx/build_inputs.hpp>
#include <attnx/errors.hpp>
#include <attnx/memory.hpp>
#include <attnx/schema.hpp>

namespace attnx::wasm {

namespace {

const char* const kPatternNames[] = {"pattern", "L",       "k",       "w",       "r",
                                     "block",   "stride",  "globals", "randoms", "weights",
                                     "wMin",    "decay",   "triplets"};
const char* const kTolNames[] = {"eps", "tau", "delta"};

std::vector<std::string> allowed_names(Call call) {
  std::vector<std::string> v(std::begin(kPatternNames), std::end(kPatternNames));
  v.insert(v.end(), std::begin(kTolNames), std::end(kTolNames));
  v.push_back("seed");
  v.push_back("maxBytes");
  switch (call) {
    case Call::Construct: v.insert(v.end(), {"d", "views", "construction", "box", "projection", "precision", "trial"}); break;
    case Call::MinD: v.insert(v.end(), {"dmax", "step", "construction", "box", "projection"}); break;
    case Call::SweepPoint: v.insert(v.end(), {"dmax", "step", "trials", "firstTrial", "construction", "box", "projection"}); break;
    case Call::Estimate: v.insert(v.end(), {"d", "dmax", "step", "trials"}); break;
  }
  return v;
}

bool present(const val& v) { return !v.isUndefined() && !v.isNull(); }

// Short text of a JS value for messages: numbers as JS prints them (exact for integers up to
// 1e21), strings quoted.
std::string describe(const val& v) {
  const std::string type = v.typeOf().as<std::string>();
  std::string s = val::global("String")(v).as<std::string>();
  if (s.size() > 40) s = s.substr(0, 40) + "...";
  if (type == "string") return "\"" + s + "\"";
  if (type == "bigint") return s + "n";
  if (type == "object" && v.isArray()) return "an array";
  if (type == "object") return "an object";
  return s;
}

std::string int_range_text(long long lo, long long hi) {
  return "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
}

// Integer option in [lo, hi]; non-numbers, fractions and values beyond [lo, hi] are refused with
// the core's wording. Values in range are returned exactly.
long long read_int(const val& opts, const char* name, long long def, long long lo, long long hi) {
  val v = opts[name];
  if (!present(v)) return def;
  const bool is_num = v.typeOf().as<std::string>() == "number";
  const double x = is_num ? v.as<double>() : NAN;
  if (!is_num || !std::isfinite(x) || x != std::floor(x) || x < static_cast<double>(lo) ||
      x > static_cast<double>(hi))
    fail(name, std::string(name) + " must be " + int_range_text(lo, hi) + " (got " +
                   describe(v) + ")");
  return static_cast<long long>(x);
}

// Integer option with the range of the core's option table (capped for this build, "wasm").
long long read_option(const val& opts, const char* name, long long def) {
  return read_int(opts, name, def, static_cast<long long>(option_info(name).min),
                  static_cast<long long>(context_max("wasm", name)));
}

// Integer parameter whose range the core checks later (it may depend on L or the family): only
// the type is checked here, and values that do not fit an int are refused with [lo, hi_guess].
int read_int_param(const val& opts, const char* name, int def, long long lo, long long hi) {
  val v = opts[name];
  if (!present(v)) return def;
  const bool is_num = v.typeOf().as<std::string>() == "number";
  const double x = is_num ? v.as<double>() : NAN;
  if (!is_num || !std::isfinite(x) || x != std::floor(x) || x < -2147483647.0 ||
      x > 2147483647.0)
    fail(name, std::string(name) + " must be " + int_range_text(lo, hi) + " (got " +
                   describe(v) + ")");
  return static_cast<int>(x);
}

// Real option: only the type is checked here (the core checks ranges, including finiteness).
double read_real(const val& opts, const char* name, double def) {
  val v = opts[name];
  if (!present(v)) return def;
  if (v.typeOf().as<std::string>() != "number")
    fail(name, std::string(name) + " must be a number (got " + describe(v) + ")");
  return v.as<double>();
}

std::string read_string(const val& opts, const char* name, const std::string& def) {
  val v = opts[name];
  if (!present(v)) return def;
  if (v.typeOf().as<std::string>() == "string") return v.as<std::string>();
  return "<" + describe(v) + ">";  // refused by the parser with the list of names
}

void read_triplets(const val& t, int L, std::vector<Triplet>& out) {
  if (t.typeOf().as<std::string>() != "object")
    fail("triplets", "triplets must be an object {rows, cols, vals} of equal-length arrays (got " +
                         describe(t) + ")");
  const char* const keys[] = {"rows", "cols", "vals"};
  std::vector<double> a[3];
  for (int q = 0; q < 3; ++q) {
    val arr = t[keys[q]];
    const std::string type = arr.typeOf().as<std::string>();
    if (!present(arr) || type != "object" || !arr["length"].isNumber())
      fail("triplets", std::string("triplets.") + keys[q] +
                           " must be an array or typed array of numbers (got " + describe(arr) +
                           ")");
    a[q] = emscripten::convertJSArrayToNumberVector<double>(arr);
  }
  if (a[0].size() != a[1].size() || a[0].size() != a[2].size())
    fail("triplets", "triplets.rows, .cols and .vals must have the same length (got " +
                         std::to_string(a[0].size()) + ", " + std::to_string(a[1].size()) +
                         ", " + std::to_string(a[2].size()) + ")");
  out.resize(a[0].size());
  for (std::size_t n = 0; n < out.size(); ++n) {
    for (int q = 0; q < 2; ++q) {
      const double x = a[q][n];
      if (!std::isfinite(x) || x != std::floor(x) || x < 0 || x > L - 1)
        fail("triplets", "entry " + std::to_string(n) + ": " + (q == 0 ? "row" : "column") +
                             " index must be an integer from 0 to " + std::to_string(L - 1) +
                             " (got " + fmt_num(x) + ")");
    }
    out[n].i = static_cast<long long>(a[0][n]);
    out[n].j = static_cast<long long>(a[1][n]);
    out[n].w = a[2][n];
  }
}

}  // namespace

namespace {

// Unknown names are refused: a typo must not silently fall back to a default.
void check_known_keys(const val& opts, Call call) {
  const auto allowed = allowed_names(call);
  val keys = val::global("Object").call<val>("keys", opts);
  const int nkeys = keys["length"].as<int>();
  for (int q = 0; q < nkeys; ++q) {
    const std::string key = keys[q].as<std::string>();
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(key, "unknown option \"" + key.substr(0, 40) + "\" (allowed: " + list + ")");
    }
  }
}

// Family, L, the family parameters (typed here; their family ranges are the core's to check when
// the pattern is made), weights and the custom triplets.
void read_pattern_options(const val& opts, Call call, Options& o) {
  PatternSpec& s = o.spec;
  const bool has_triplets = present(opts["triplets"]);
  const std::string fam =
      read_string(opts, "pattern", has_triplets ? "custom" : family_name(s.family));
  s.family = parse_family(fam);
  if (s.family == Family::Custom && call == Call::SweepPoint)
    fail("pattern", "pattern custom cannot be swept over L (choose a generated family)");
  if (s.family == Family::Custom && !has_triplets)
    fail("triplets", "pattern custom needs triplets {rows, cols, vals} (0-based indices, weights "
                     ">= 0; rows are normalised)");
  if (s.family != Family::Custom && has_triplets)
    fail("triplets", "triplets are only used with pattern custom (got pattern " + fam + ")");
  if (s.family == Family::Custom && !present(opts["L"]))
    fail("L", "L must be given with pattern custom (" + option_range_text(option_info("L")) + ")");
  s.L = static_cast<int>(read_option(opts, "L", s.L));
  const char* const int_params[] = {"k", "w", "r", "block", "stride", "globals", "randoms"};
  int* const fields[] = {&s.k, &s.w, &s.r, &s.block, &s.stride, &s.globals, &s.randoms};
  for (int q = 0; q < 7; ++q) {
    long long lo = 0, hi = 0;  // for the message of a value no int can hold
    param_bounds(s.family, int_params[q], s.L, lo, hi);
    *fields[q] = read_int_param(opts, int_params[q], *fields[q], lo, hi);
  }
  s.weights = parse_weights(read_string(opts, "weights", weights_name(s.weights)));
  s.w_min = read_real(opts, "wMin", s.w_min);
  s.decay = read_real(opts, "decay", s.decay);
  if (s.family == Family::Custom) {
    o.has_triplets = true;
    read_triplets(opts["triplets"], s.L, o.triplets);
  }
}

// construction (a name the core checks), box (lp) and precision (construct: true or false).
void read_construction_options(const val& opts, Call call, Options& o) {
  o.construction = read_string(opts, "construction", o.construction);
  require_construction(o.construction);
  o.box = read_real(opts, "box", o.box);
  require_option("box", o.box);
  o.mind.projection = parse_projection(read_string(opts, "projection", projection_name(o.mind.projection)));
  require_projection_applies(o.construction, o.mind.projection);
  val p = opts["precision"];
  if (call == Call::Construct && present(p)) {
    if (p.typeOf().as<std::string>() != "boolean")
      fail("precision", "precision must be true or false (got " + describe(p) + ")");
    o.precision = p.as<bool>();
  }
}

// Tolerances, seed, budget, and the options of the call's own (d; step, dmax; trials).
void read_run_options(const val& opts, Call call, Options& o) {
  o.tol.eps = read_real(opts, "eps", o.tol.eps);
  o.tol.tau = read_real(opts, "tau", o.tol.tau);
  o.tol.delta = read_real(opts, "delta", o.tol.delta);
  validate(o.tol);
  o.seed = static_cast<std::uint64_t>(read_option(opts, "seed", o.seed));
  o.mind.max_bytes = static_cast<std::uint64_t>(
      read_option(opts, "maxBytes", static_cast<long long>(o.mind.max_bytes)));
  if (call == Call::Construct || call == Call::Estimate)
    o.d = static_cast<int>(read_option(opts, "d", o.d));
  if (call != Call::Construct) {
    o.mind.step = static_cast<int>(read_option(opts, "step", o.mind.step));
    o.mind.d_max = static_cast<int>(read_option(opts, "dmax", o.mind.d_max));
    validate(o.mind);
  }
  if (call != Call::Estimate) read_construction_options(opts, call, o);
  if (call == Call::SweepPoint || call == Call::Estimate)
    o.trials = static_cast<int>(read_option(opts, "trials", o.trials));
  if (call == Call::SweepPoint)
    o.first_trial = static_cast<int>(
        read_int(opts, "firstTrial", 0, 0, kMaxTrials - o.trials));
  if (call == Call::Construct) {  // trial t of a sweep at this L: its target and projection
    o.trial = static_cast<int>(read_int(opts, "trial", -1, 0, kMaxTrials - 1));
    o.master_seed = o.seed;
    if (o.trial >= 0) o.seed = trial_seed(o.seed, o.spec.L, o.trial);
  }
}

}  // namespace

namespace {

// construct's `views` request { size, xRows, xCols, omitX, inputs } (all optional): pooled images made
// by the core (core/views.hpp); ranges are the core's (validate(ViewRequest)).
void read_views(const val& opts, Options& o) {
  val v = opts["views"];
  if (!present(v)) return;
  if (v.typeOf().as<std::string>() != "object" || v.isArray())
    fail("views", "views must be an object { size, xRows, xCols, omitX } (got " + describe(v) + ")");
  const std::string range = int_range_text(1, kMaxViewPixels);
  auto pixels = [&](const char* key, int def) {
    val x = v[key];
    if (!present(x)) return def;
    const bool num = x.typeOf().as<std::string>() == "number";
    const double d = num ? x.as<double>() : NAN;
    if (!num || !std::isfinite(d) || d != std::floor(d) || d < 1 || d > kMaxViewPixels)
      fail(std::string("views.") + key, std::string("views.") + key + " must be " + range + " (got " + describe(x) + ")");
    return static_cast<int>(d);
  };
  o.want_views = true;
  o.views.size = pixels("size", o.views.size);
  o.views.x_rows = pixels("xRows", o.views.x_rows);
  o.views.x_cols = pixels("xCols", o.views.x_cols);
  val omit = v["omitX"];
  if (present(omit) && omit.typeOf().as<std::string>() != "boolean")
    fail("views.omitX", "views.omitX must be true or false (got " + describe(omit) + ")");
  o.omit_x = present(omit) && omit.as<bool>();
  val inputs = v["inputs"];
  if (present(inputs) && inputs.typeOf().as<std::string>() != "boolean")
    fail("views.inputs", "views.inputs must be true or false (got " + describe(inputs) + ")");
  o.views.inputs = !present(inputs) || inputs.as<bool>();
  validate(o.views);
}

}  // namespace

Options read_options(const val& opts_in, Call call) {
  val opts = present(opts_in) ? opts_in : val::object();
  if (opts.typeOf().as<std::string>() != "object" || opts.isArray())
    fail("options", "options must be a plain object (got " + describe(opts) + ")");
  check_known_keys(opts, call);
  Options o;
  read_pattern_options(opts, call, o);
  read_run_options(opts, call, o);
  if (call == Call::Construct) read_views(opts, o);
  return o;
}

val params_to_js(const Options& o, Call call) {
  const PatternSpec& s = o.spec;
  val p = val::object();
  p.set("pattern", std::string(family_name(s.family)));
  p.set("L", s.L);
  for (const auto& fam : pattern_families()) {
    if (fam.name != family_name(s.family)) continue;
    for (const auto& q : fam.params) {
      const std::string& n = q.name;
      const int v = n == "k" ? s.k : n == "w" ? s.w : n == "r" ? s.r : n == "block" ? s.block
                  : n == "stride" ? s.stride : n == "globals" ? s.globals : s.randoms;
      p.set(n, v);
    }
  }
  if (s.family != Family::Custom) {
    p.set("weights", std::string(weights_name(s.weights)));
    if (s.weights == Weights::Random) p.set("wMin", s.w_min);
    if (s.weights == Weights::Decaying) p.set("decay", s.decay);
  }
  p.set("eps", o.tol.eps);
  p.set("tau", o.tol.tau);
  p.set("delta", o.tol.delta);
  if (call == Call::Construct || call == Call::Estimate) p.set("d", o.d);
  if (call != Call::Estimate && o.construction != "jl") {
    p.set("construction", o.construction);
    if (o.construction == "lp") p.set("box", o.box);
  }
  if (call != Call::Estimate && o.mind.projection != ProjectionKind::Gaussian)
    p.set("projection", std::string(projection_name(o.mind.projection)));
  if (call != Call::Construct) {
    p.set("dmax", o.mind.d_max);
    p.set("step", o.mind.step);
  }
  if (call == Call::SweepPoint || call == Call::Estimate) p.set("trials", o.trials);
  if (call == Call::SweepPoint && o.first_trial > 0) p.set("firstTrial", o.first_trial);
  if (o.trial >= 0) p.set("trial", o.trial);
  p.set("seed", static_cast<double>(o.trial >= 0 ? o.master_seed : o.seed));
  p.set("maxBytes", static_cast<double>(o.mind.max_bytes));
  return p;
}

InputsRequest inputs_request(const Options& o) {
  InputsRequest r;
  r.construction = o.construction;
  r.d = o.d;
  r.seed = o.seed;
  r.box = o.box;
  r.max_bytes = o.mind.max_bytes;
  r.jl_precision = o.precision;
  r.projection = o.mind.projection;
  return r;
}

Pattern build_pattern(const Options& o) {
  if (o.spec.family == Family::Custom) return pattern_from_triplets(o.spec.L, o.triplets);
  Rng rng(pattern_seed(o.seed));
  return make_pattern(o.spec, rng);
}

val to_float32_array(const float* p, std::size_t n) {
  val a = val::global("Float32Array").new_(n);
  if (n) a.call<void>("set", val(emscripten::typed_memory_view(n, p)));
  return a;
}

val to_float32_array(const double* p, std::size_t n) {
  // Float64 view -> Float32Array.set converts element-wise (round to nearest, like a C++ cast).
  val a = val::global("Float32Array").new_(n);
  if (n) a.call<void>("set", val(emscripten::typed_memory_view(n, p)));
  return a;
}

val to_int32_array(const int* p, std::size_t n) {
  val a = val::global("Int32Array").new_(n);
  if (n) a.call<void>("set", val(emscripten::typed_memory_view(n, p)));
  return a;
}

val to_float64_array(const double* p, std::size_t n) {
  val a = val::global("Float64Array").new_(n);
  if (n) a.call<void>("set", val(emscripten::typed_memory_view(n, p)));
  return a;
}

val to_uint8_array(const unsigned char* p, std::size_t n) {
  val a = val::global("Uint8Array").new_(n);
  if (n) a.call<void>("set", val(emscripten::typed_memory_view(n, p)));
  return a;
}

std::vector<double> read_number_array(const val& a, const char* field) {
  if (!present(a) || a.typeOf().as<std::string>() != "object" || !a["length"].isNumber())
    fail(field, std::string(field) + " must be an array of numbers (got " + describe(a) + ")");
  std::vector<double> v = emscripten::convertJSArrayToNumberVector<double>(a);
  for (std::size_t n = 0; n < v.size(); ++n)
    if (!std::isfinite(v[n]))
      fail(field, std::string(field) + "[" + std::to_string(n) +
                      "] must be a finite number (got " + fmt_num(v[n]) + ")");
  return v;
}

namespace {

val make_error(const char* ctor, const std::string& message, const std::string& field,
               const char* kind) {
  val e = val::global(ctor).new_(val(message));
  if (!field.empty()) e.set("field", field);
  e.set("kind", std::string(kind));
  return e;
}

}  // namespace

val error_to_js(std::exception_ptr ep) {
  try {
    std::rethrow_exception(ep);
  } catch (const InvalidArgument& e) {
    return make_error("RangeError", e.what(), e.field(), "invalid");  // core names = JS names
  } catch (const BudgetExceeded& e) {
    return make_error("RangeError", e.what(), "maxBytes", "budget");
  } catch (const std::bad_alloc&) {
    return make_error("Error",
                      "out of memory: the WebAssembly heap could not grow (reduce L or d, or "
                      "lower maxBytes)",
                      "", "memory");
  } catch (const std::exception& e) {
    return make_error("Error", std::string("internal error: ") + e.what(), "", "internal");
  } catch (...) {
    return make_error("Error", "internal error: unknown exception", "", "internal");
  }
}

Progress make_progress(const val& callback, double every) {
  if (!present(callback) || callback.typeOf().as<std::string>() != "function") return nullptr;
  auto last = std::make_shared<double>(-1.0);
  return [callback, every, last](double f) -> bool {
    if (f < 1.0 && *last >= 0 && f - *last < every) return true;
    *last = f;
    val r = callback(val(f));
    return !r.strictlyEquals(val(false));
  };
}

}  // namespace attnx::wasm
