// attnx core: reading the JavaScript API's options (see call_options.hpp).
#include <attnx/call_options.hpp>

#include <algorithm>
#include <cmath>

#include <attnx/call_values.hpp>
#include <attnx/errors.hpp>
#include <attnx/schema.hpp>

namespace attnx {

namespace {

using Type = JsonValue::Type;

const char* const kCommonNames[] = {"pattern", "L",     "k",       "w",        "r",
                                    "block",   "stride", "globals", "randoms", "weights",
                                    "wMin",    "decay", "triplets", "eps",     "tau",
                                    "delta",   "seed",  "maxBytes"};

std::vector<std::string> allowed_names(Call call) {
  std::vector<std::string> v(std::begin(kCommonNames), std::end(kCommonNames));
  switch (call) {
    case Call::Construct: v.insert(v.end(), {"d", "views", "construction", "box", "budget", "projection", "precision", "trial"}); break;
    case Call::MinD: v.insert(v.end(), {"dmax", "step", "construction", "box", "budget", "projection"}); break;
    case Call::SweepPoint: v.insert(v.end(), {"dmax", "step", "trials", "firstTrial", "construction", "box", "budget", "projection"}); break;
    case Call::Estimate: v.insert(v.end(), {"d", "dmax", "step", "trials"}); break;
  }
  return v;
}

// The member `name` of an object, or nullptr when the caller gave nothing.
const JsonValue* given(const JsonValue& o, const std::string& name) {
  const JsonValue* v = o.find(name);
  return absent(v) ? nullptr : v;
}

std::string int_range_text(long long lo, long long hi) {
  return "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
}

bool is_int_in(const JsonValue& v, double lo, double hi) {
  return v.type == Type::Number && std::isfinite(v.num) && v.num == std::floor(v.num) &&
         v.num >= lo && v.num <= hi;
}

// Integer member in [lo, hi] (def when absent); named `field` in messages.
long long read_int(const JsonValue& o, const std::string& name, long long def, long long lo,
                   long long hi, const std::string& field) {
  const JsonValue* v = given(o, name);
  return v ? int_value(*v, field, lo, hi) : def;
}

// Integer option with the option table's range (its maximum capped for the "wasm" context).
long long read_option(const JsonValue& o, const char* name, long long def) {
  return read_int(o, name, def, static_cast<long long>(option_info(name).min),
                  static_cast<long long>(context_max("wasm", name)), name);
}

// Family parameter: only its type here (its family's range is checked when the pattern is made);
// a value no int holds is refused with the family's range [lo, hi].
int read_int_param(const JsonValue& o, const char* name, int def, long long lo, long long hi) {
  const JsonValue* v = given(o, name);
  if (!v) return def;
  if (!is_int_in(*v, -2147483647.0, 2147483647.0))
    fail(name, std::string(name) + " must be " + int_range_text(lo, hi) + " (got " +
                   describe_value(*v) + ")");
  return static_cast<int>(v->num);
}

// Real option: only the type here (the core's validate() checks the range, finiteness too).
double read_real(const JsonValue& o, const char* name, double def) {
  const JsonValue* v = given(o, name);
  if (!v) return def;
  if (v->type != Type::Number)
    fail(name, std::string(name) + " must be a number (got " + describe_value(*v) + ")");
  return v->num;
}

// A name the caller's parser checks: a non-string becomes "<...>", refused there with the list.
std::string read_string(const JsonValue& o, const char* name, const std::string& def) {
  const JsonValue* v = given(o, name);
  if (!v) return def;
  return v->type == Type::String ? v->str : "<" + describe_value(*v) + ">";
}

bool read_bool(const JsonValue& o, const std::string& name, bool def, const std::string& field) {
  const JsonValue* v = given(o, name);
  if (!v) return def;
  if (v->type != Type::Bool)
    fail(field, field + " must be true or false (got " + describe_value(*v) + ")");
  return v->b;
}

// An array member of numbers (JSON array or typed array) as doubles.
std::vector<double> triplet_column(const JsonValue& t, const char* key) {
  const JsonValue* a = t.find(key);
  const bool ok = a && (a->type == Type::Numbers ||
                        (a->type == Type::Array &&
                         std::all_of(a->arr.begin(), a->arr.end(),
                                     [](const JsonValue& x) { return x.type == Type::Number; })));
  if (!ok)
    fail("triplets", std::string("triplets.") + key +
                         " must be an array or typed array of numbers (got " +
                         (a ? describe_value(*a) : "undefined") + ")");
  if (a->type == Type::Numbers) return a->nums;
  std::vector<double> v(a->arr.size());
  for (std::size_t n = 0; n < v.size(); ++n) v[n] = a->arr[n].num;
  return v;
}

std::vector<Triplet> read_triplets(const JsonValue& t, int L) {
  if (t.type != Type::Object)
    fail("triplets", "triplets must be an object {rows, cols, vals} of equal-length arrays (got " +
                         describe_value(t) + ")");
  const std::vector<double> a[3] = {triplet_column(t, "rows"), triplet_column(t, "cols"),
                                    triplet_column(t, "vals")};
  if (a[0].size() != a[1].size() || a[0].size() != a[2].size())
    fail("triplets", "triplets.rows, .cols and .vals must have the same length (got " +
                         std::to_string(a[0].size()) + ", " + std::to_string(a[1].size()) +
                         ", " + std::to_string(a[2].size()) + ")");
  std::vector<Triplet> out(a[0].size());
  for (std::size_t n = 0; n < out.size(); ++n) {
    for (int q = 0; q < 2; ++q) {
      const double x = a[q][n];
      if (!std::isfinite(x) || x != std::floor(x) || x < 0 || x > L - 1)
        fail("triplets", "entry " + std::to_string(n) + ": " + (q == 0 ? "row" : "column") +
                             " index must be an integer from 0 to " + std::to_string(L - 1) +
                             " (got " + fmt_num(x) + ")");
    }
    out[n] = {static_cast<long long>(a[0][n]), static_cast<long long>(a[1][n]), a[2][n]};
  }
  return out;
}

// Family, L, the family parameters (typed here; their ranges are checked when the pattern is
// made), weights and the custom triplets.
void read_pattern_options(const JsonValue& opts, Call call, CallOptions& o) {
  PatternSpec& s = o.spec;
  const JsonValue* triplets = given(opts, "triplets");
  const std::string fam = read_string(opts, "pattern", triplets ? "custom" : family_name(s.family));
  s.family = parse_family(fam);
  const bool custom = s.family == Family::Custom;
  if (custom && call == Call::SweepPoint)
    fail("pattern", "pattern custom cannot be swept over L (choose a generated family)");
  if (custom && !triplets)
    fail("triplets", "pattern custom needs triplets {rows, cols, vals} (0-based indices, weights "
                     ">= 0; rows are normalised)");
  if (!custom && triplets)
    fail("triplets", "triplets are only used with pattern custom (got pattern " + fam + ")");
  if (custom && !given(opts, "L"))
    fail("L", "L must be given with pattern custom (" + option_range_text(option_info("L")) + ")");
  s.L = static_cast<int>(read_option(opts, "L", s.L));
  const char* const names[] = {"k", "w", "r", "block", "stride", "globals", "randoms"};
  int* const fields[] = {&s.k, &s.w, &s.r, &s.block, &s.stride, &s.globals, &s.randoms};
  for (int q = 0; q < 7; ++q) {
    long long lo = 0, hi = 0;  // for the message of a value no int can hold
    param_bounds(s.family, names[q], s.L, lo, hi);
    *fields[q] = read_int_param(opts, names[q], *fields[q], lo, hi);
  }
  s.weights = parse_weights(read_string(opts, "weights", weights_name(s.weights)));
  s.w_min = read_real(opts, "wMin", s.w_min);
  s.decay = read_real(opts, "decay", s.decay);
  if (custom) o.triplets = read_triplets(*triplets, s.L);
}

// construction (a name check_request checks), box (lp), budget (opt), projection and precision
// (construct only): their types here, every refusal into `p`.
void read_construction_options(const JsonValue& opts, Call call, CallOptions& o, Problems& p) {
  o.construction = read_string(opts, "construction", o.construction);
  p.check([&] { o.box = read_real(opts, "box", o.box); });
  p.check([&] { o.scale = read_real(opts, "budget", o.scale); });
  p.check([&] {
    o.mind.projection = parse_projection(read_string(opts, "projection", projection_name(o.mind.projection)));
  });
  if (call == Call::Construct) p.check([&] { o.precision = read_bool(opts, "precision", false, "precision"); });
}

// Tolerances, seed, budget, and the options of the call's own (d; step, dmax; trials; trial):
// their types and the "wasm" context's ranges here, every refusal into `p` (the construction's
// own ranges: check_request).
void read_run_options(const JsonValue& opts, Call call, CallOptions& o, Problems& p) {
  p.check([&] { o.tol.eps = read_real(opts, "eps", o.tol.eps); });
  p.check([&] { o.tol.tau = read_real(opts, "tau", o.tol.tau); });
  p.check([&] { o.tol.delta = read_real(opts, "delta", o.tol.delta); });
  p.check([&] { o.seed = o.master_seed = static_cast<std::uint64_t>(read_option(opts, "seed", o.seed)); });
  p.check([&] {
    o.mind.max_bytes = static_cast<std::uint64_t>(read_option(opts, "maxBytes", static_cast<long long>(o.mind.max_bytes)));
  });
  if (call == Call::Construct || call == Call::Estimate) p.check([&] { o.d = static_cast<int>(read_option(opts, "d", o.d)); });
  if (call != Call::Construct) {
    p.check([&] { o.mind.step = static_cast<int>(read_option(opts, "step", o.mind.step)); });
    p.check([&] { o.mind.d_max = static_cast<int>(read_option(opts, "dmax", o.mind.d_max)); });
  }
  if (call != Call::Estimate) read_construction_options(opts, call, o, p);
  if (call == Call::SweepPoint || call == Call::Estimate)
    p.check([&] { o.trials = static_cast<int>(read_option(opts, "trials", o.trials)); });
  if (call == Call::SweepPoint)
    p.check([&] {
      o.first_trial = static_cast<int>(read_int(opts, "firstTrial", 0, 0, kMaxTrials - o.trials, "firstTrial"));
    });
  if (call == Call::Construct) {  // trial t of a sweep at this L: its target and projection
    p.check([&] { o.trial = static_cast<int>(read_int(opts, "trial", -1, 0, kMaxTrials - 1, "trial")); });
    if (o.trial >= 0) o.seed = trial_seed(o.seed, o.spec.L, o.trial);
  }
}

// The construction's request of a call (unchecked): construct builds, minD and sweepPoint search.
ConstructionRequest request_of(const CallOptions& o) {
  ConstructionRequest r;
  r.construction = o.construction;
  r.tol = o.tol;
  r.d = o.d;
  r.mind = o.mind;
  r.seed = o.seed;
  r.box = o.box;
  r.scale = o.scale;
  r.precision = o.precision;
  return r;
}

// construct's `views` request { size, xRows, xCols, omitX, inputs, dense } (all optional):
// pooled images made by the core (views.hpp); dense false leaves M and the logits out.
void read_views(const JsonValue& opts, CallOptions& o) {
  const JsonValue* v = given(opts, "views");
  if (!v) return;
  if (v->type != Type::Object)
    fail("views", "views must be an object { size, xRows, xCols, omitX, inputs, dense } (got " +
                      describe_value(*v) + ")");
  auto pixels = [&](const char* key, int def) {
    const std::string field = std::string("views.") + key;
    return static_cast<int>(read_int(*v, key, def, 1, kMaxViewPixels, field));
  };
  o.want_views = true;
  o.views.size = pixels("size", o.views.size);
  o.views.x_rows = pixels("xRows", o.views.x_rows);
  o.views.x_cols = pixels("xCols", o.views.x_cols);
  o.omit_x = read_bool(*v, "omitX", false, "views.omitX");
  o.views.inputs = read_bool(*v, "inputs", true, "views.inputs");
  o.omit_dense = !read_bool(*v, "dense", true, "views.dense");
  validate(o.views);
}

}  // namespace

bool absent(const JsonValue* v) {
  return !v || v->type == Type::Null || (v->type == Type::Other && v->str == "undefined");
}

std::string describe_value(const JsonValue& v) {
  auto cut = [](const std::string& s) { return s.size() > 40 ? s.substr(0, 40) + "..." : s; };
  switch (v.type) {
    case Type::Null: return "null";
    case Type::Bool: return v.b ? "true" : "false";
    case Type::Number: return js_number(v.num);
    case Type::String: return "\"" + cut(v.str) + "\"";
    case Type::Array: return "an array";
    case Type::Object:
    case Type::Numbers: return "an object";
    case Type::Other: return cut(v.str);
  }
  return "";
}

CallOptions read_call_options(const JsonValue& opts_in, Call call) {
  const JsonValue& opts = options_value(opts_in, allowed_names(call));  // unknown names refused
  CallOptions o;
  Problems p;
  p.check([&] { read_pattern_options(opts, call, o); });
  read_run_options(opts, call, o, p);
  if (call == Call::Construct) p.check([&] { read_views(opts, o); });
  if (call == Call::Estimate) {
    p.check([&] { validate(o.tol); });
    p.check([&] { validate(o.mind); });
  } else {
    check_request_fields(request_of(o), call == Call::Construct ? Purpose::Build : Purpose::Search, p);
  }
  p.throw_if_any();
  if (call != Call::Estimate) o.request = check_request(request_of(o), call == Call::Construct ? Purpose::Build : Purpose::Search);
  return o;
}

}  // namespace attnx
