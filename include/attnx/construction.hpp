// attnx core: the registry of constructions (SPEC §3, §8, §10) and the one checked request.
// A construction is one record (ConstructionKind): what the pages and the CLI are told of it, its
// own limits, its memory estimate, how it builds X, how its minimal dimension is searched and what
// it reports. Every front end (the CLI, the WebAssembly module and through it the pages) reads a
// ConstructionRequest, has it checked once by check_request (every bad field in one pass) and
// hands the CheckedRequest to build_inputs or search_min_d, which hold the record and call it:
// nothing outside core/constructions/ compares a construction's name. A new construction is its
// own files plus one line in core/constructions/registry.cpp.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "construct.hpp"
#include "inputs.hpp"
#include "lp_rows.hpp"
#include "memory.hpp"
#include "mind.hpp"
#include "projection.hpp"

namespace attnx {

class GramLadder;
class Problems;

// Runs body(i) for every i in [0, n) in any order, e.g. on threads (rows whose work is
// independent); null: in order on the calling thread. No result depends on it.
using ForEachRow = std::function<void(int n, const std::function<void(int)>& body)>;

// One number of a construction's own summary (ConstructionInfo::report names them): lp's feasible
// rows and margins, opt's iterations and penalty. key: the CLI's JSON key; api: the JavaScript
// API's and the schema's metric name (its label and help are the core's, metrics_info.hpp).
struct ReportField {
  std::string key, api;
  enum class Kind { Count, Real, Flag } kind = Kind::Real;
  std::string ok;  // when the value is good: "positive", "allRows" (= L), "set" (a flag); "": no verdict
};

// What a page needs to know of each construction: the pages read these properties instead of
// comparing construction names, so a new construction is a core change only.
struct ConstructionInfo {
  std::string name, label;  // "lp", "Optimal queries (LP, §8.2)"
  bool uses_d = true;       // moment: D = 2m, d is not an input
  bool searchable = true;   // a minimal d exists (jl, lp, opt)
  int d_max = 0;            // largest d construct accepts
  int explorer_d = 0;       // the explorer's d when this construction is picked (0: keep d)
  int search_step = 0;      // its minimal-d grid step (0: the option's default)
  std::vector<std::string> params;  // the options only this kind of construction uses
  bool bisect = false;      // success is monotone in d (nested columns): its d search may bisect
  std::string search;       // how its minimal dimension is found, one sentence
  std::string dimension;    // "d" (chosen) or "2m" (fixed by the pattern: D = 2m)
  bool precision_always = false;  // the §8.4 report comes with every result (else on request)
  std::vector<ReportField> report;      // its own summary numbers (BuiltInputs::report)
  std::vector<std::string> row_report;  // per-row extras it reports: "margin", "iterations", "lambda"
  bool row_query = false;   // its X is small: the row inspector shows a row's query
  bool sliced = false;      // construct stops between slices and resumes (keeps its Gram ladder)
  bool row_threads = false; // its rows are independent: --threads spreads them over threads
  std::string kind_of_mark; // what its d is on a plot: "construction" (a rule) or "search"
  bool compared = true;        // in the lab's "dimensions against bits" comparison over L (opt: on the
                               // frontier instead, whose x axis is its budget)
  double search_cost = 1;      // a search's cost against jl's at the same L (shards' balance)
  std::string frontier_param;  // the option the frontier varies (SPEC §10.2): "budget" (opt's
                               // Lambda_max, --scale), "box" (lp's U); "": one point
  std::string summary;      // one sentence: what it does and what it costs
  std::string bits_floor;   // the SPEC 9.3 floor on D w that holds for it (a bounds.hpp key):
                            // "bits_fixed_keys" (keys fixed before the target) or "bits_free_keys"
  // The two halves of X = [Q, K] as the explorer names them: a title and a subtitle each.
  std::string queries_title, queries_sub, keys_title, keys_sub;
};

// opt's logit-scale budget Lambda_max when none is given (SPEC §10.1): the scale jl's X has at
// the paper's settings, so that opt and the paper's construction are compared at the same scale.
constexpr double kDefaultOptScale = 5.3;
constexpr double kMaxOptScale = 1e6;           // opt's largest budget (a scale far beyond every wall)
constexpr const char* kDefaultConstruction = "jl";  // the paper's (SPEC §3)
// The frontier's grids when none is given (SPEC §10.2): opt's budgets around jl's own scale, lp's
// boxes from tight to its default U = 1000; at most kMaxFrontierSettings values each.
constexpr const char* kDefaultFrontierScales = "4,5.3,8,16,64";
constexpr const char* kDefaultFrontierBoxes = "1,3,10,30,100,1000";
constexpr int kMaxFrontierSettings = 16;

// Every field of a request for X (Purpose::Build) or for its minimal dimension (Purpose::Search),
// as a front end read it; check_request validates the fields the purpose uses.
struct ConstructionRequest {
  std::string construction = kDefaultConstruction;  // one of construction_names()
  Tolerances tol;
  int d = kDefaultD;                // Build: the hidden size (constructions with info.uses_d)
  MinDOptions mind;                 // Search: step and d_max; both: the budget (mind.max_bytes),
                                    // jl's projection kind and the Gram kernel
  std::uint64_t seed = kDefaultSeed;
  double box = kDefaultLpBox;       // lp: U of SPEC §8.2
  double scale = kDefaultOptScale;  // opt: the logit-scale budget Lambda_max of SPEC §10.1
  bool precision = false;           // Build: the §8.4 report too (precision_always: always)
  int threads = 1;                  // rows worked on at once (row_threads; budget per thread)
};

enum class Purpose { Build, Search };

struct ConstructionKind;

// A request whose every field passed check_request for its purpose: the only way to build or
// search. It holds the construction's record.
class CheckedRequest {
 public:
  const ConstructionKind& kind() const { return *kind_; }
  const ConstructionRequest& get() const { return r_; }
  const ConstructionRequest* operator->() const { return &r_; }
  Purpose purpose() const { return purpose_; }
  // The same checked request at another hidden size, within the construction's range (its
  // search moves d); throws std::logic_error outside it (a bug, not an input).
  CheckedRequest at_d(int d) const;
  // The same request asking for the §8.4 report too.
  CheckedRequest with_precision() const;

 private:
  CheckedRequest(const ConstructionKind& k, ConstructionRequest r, Purpose p) : kind_(&k), r_(std::move(r)), purpose_(p) {}
  friend CheckedRequest check_request(const ConstructionRequest& r, Purpose purpose);
  const ConstructionKind* kind_;
  ConstructionRequest r_;
  Purpose purpose_;
};

// Validates every field `purpose` uses of construction r.construction (the name first; then the
// tolerances, the seed, the budget's size, d or the grid within the construction's own range, its
// own parameters, and that no field of another construction was set away from its default where
// a front end could not tell: jl's projection), collecting every refusal: an InvalidArgument whose
// field() is the first bad field and whose message is each refusal in turn, joined by "; ".
CheckedRequest check_request(const ConstructionRequest& r, Purpose purpose);
// Adds the refusals of check_request to `problems` instead of throwing (readers that check more
// fields report them all together).
void check_request_fields(const ConstructionRequest& r, Purpose purpose, Problems& problems);

// Peak bytes of the request's build or search (its purpose) for a target of L rows with at most k
// entries in a row, pattern included; and the refusal when that is above r->mind.max_bytes
// (BudgetExceeded: "<construct|min-d search|moment trial> needs about X MiB, ...; reduce <what
// lowers it>, or raise the budget").
std::uint64_t request_bytes(const CheckedRequest& r, int L, int k);
void check_request_budget(const CheckedRequest& r, int L, int k);

// What a build or a search may use besides the request: progress (fraction in [0, 1]; false
// stops), jl's Gram ladder (keeps G and P across calls, gram_ladder.hpp), whether X is wanted
// (false: jl leaves it empty; its images come from the ladder) and how rows are spread.
struct BuildRun {
  Progress progress = nullptr;
  GramLadder* ladder = nullptr;
  bool with_x = true;
  ForEachRow for_each = nullptr;
};

struct RowValues {
  std::string key;             // as ConstructionInfo::row_report names it
  std::vector<double> values;  // one per row
  std::string export_key;      // its key in the CLI's export file ("" = not exported)
};
struct ReportValue {
  ReportField field;
  double value = 0;            // Flag: 0 or 1
};

struct BuiltInputs {
  Construction c;                           // X, logits, M, §2 rows and metrics (c.d: d or D),
                                            // SPEC §9 bounds (w when there is a §8.4 report)
  std::optional<PrecisionReport> precision; // SPEC §8.4 (jl: only when asked)
  std::vector<ReportValue> report;          // the construction's own summary (info.report order)
  std::vector<RowValues> rows;              // its per-row extras (info.row_report order)
};

// Builds X as the request asks and evaluates SPEC §2 on it (and §8.4 when asked or always). The
// request must be for Purpose::Build; the budget is checked at A's size before anything is
// built. When run.progress stops the work, c.cancelled is true and nothing else is set.
BuiltInputs build_inputs(const Pattern& A, const CheckedRequest& r, const BuildRun& run = {});

// The minimal dimension of the request's construction for target A (SPEC §4, §8, §10.1): its
// search on the grid r->mind (Purpose::Search); for a construction with one dimension per pattern
// (moment) the trial of that dimension (d_min = D, or not reached). The budget is checked first.
MinDResult search_min_d(const Pattern& A, const CheckedRequest& r, const BuildRun& run = {});

// One record of the registry.
// The hidden size of a construction whose d is chosen (jl, lp, opt): the request's d.
int chosen_dimension(const ConstructionRequest& r, int k);

struct ConstructionKind {
  ConstructionInfo info;
  // Its own limits beyond the option table (lp's d <= 256, opt's scale above what the
  // tolerances allow), added to `problems`.
  void (*check)(const ConstructionRequest& r, Purpose purpose, Problems& problems) = nullptr;
  // Peak bytes of a build or a search at L rows of at most k entries, pattern included.
  std::uint64_t (*bytes)(const ConstructionRequest& r, Purpose purpose, int L, int k) = nullptr;
  // What lowers that estimate, for the budget's refusal ("L or d").
  const char* build_remedy = "L or d";
  const char* search_remedy = "L";
  const char* search_what = "min-d search";  // the search's name in that refusal
  BuiltInputs (*build)(const Pattern& A, const CheckedRequest& r, const BuildRun& run) = nullptr;
  MinDResult (*search)(const Pattern& A, const CheckedRequest& r, const BuildRun& run) = nullptr;
  // The hidden size D of X for a request and a target with at most k entries in a row.
  int (*dimension)(const ConstructionRequest& r, int k) = chosen_dimension;
};

// jl (SPEC §3, §8.1), for a checked jl Build request: draws P (L x d, N(0, 1/d), column-major
// draw order from projection_seed(seed) so that its first d' columns equal the projection of a
// d'-run; other kinds: projection.hpp, with nested raw columns and the unit kinds' rows
// normalised at d), builds X, applies the fixed W_Q = [I; 0], W_K = [0; I], and evaluates the
// metrics. The logits are Z = B G / d with G = P P^T (P unit-variance; logits_row_from_gram), the
// L x L x d work done by the blocked Gram kernel (SIMD and scalar twins, bit-identical).
// run.ladder (optional) keeps G and P across calls (gram_ladder.hpp): a later call with the same L
// and seed costs no new columns for another pattern or tolerances, fewer than kLadderStep for a
// smaller d, about d' - d for a larger one; the result does not depend on what it held.
// run.progress is called once per 128 columns of P, at 0.9 and at 1; returning false during the
// Gram phase (before kConstructGramShare) gives cancelled = true, and the ladder keeps the columns
// summed so far (a repeated call resumes). run.with_x = false leaves X empty (its images are
// pooled from the ladder's columns, pool_views). bounds: SPEC §9 with Lambda of the float32 X
// (from the columns when X is not built: the same value) and max |Z| of the float logits. The
// request was checked (check_request) and its budget (build_inputs): nothing is checked again.
Construction construct(const Pattern& A, const CheckedRequest& r, const BuildRun& run = {});

// What construct(A, r, {.., &ladder, ..}) needs besides G, made now from the ladder's columns and
// kept in it for that construct (GramLadder::Ahead): SPEC §9's logit scale of its X and the L x L
// buffers of its logits and attention, their pages first touched. A worker makes it while its
// band sum waits for the helpers' bands (calls_bands.hpp), so that less is left once G is
// complete. The construct gives the same result, bit for bit, with or without it. Returns false,
// making nothing, unless the ladder holds the first d columns for (A.L, projection_seed(seed),
// projection). Made again for the same settings, it keeps what is there. Cost: the scale's
// O((L + nnz) d) and 2 L^2 floats written; memory: the buffers, which the construct would
// allocate (a construct of any settings of the same L uses them; one of another L frees them
// first; a stopped one's worker releases them, GramLadder::release_ahead_buffers).
bool construct_ahead(const Pattern& A, const CheckedRequest& r, GramLadder& ladder);

// jl's minimal d (SPEC §4) for a checked jl Search request: one pass over nested columns of P
// (drawn from projection_seed(seed), `step` at a time, of kind r->mind.projection; unit kinds read
// Z = B D^-1/2 G D^-1/2 with D the raw rows' squared norms). G = P P^T is kept as its lower
// triangle and brought up to date by symmetric rank-m updates (m up to mind_chunk_columns(step));
// at each grid point d the criterion of SPEC §2 is evaluated on Z = B G / d using the sparsity of
// B: first on recently failing rows (cheap, from cached columns), then, only when they all pass, on
// every row with early exit. d_min is the first grid point where every row passes. progress is
// called after every grid point; false cancels (d_min = -1, cancelled = true). At d_min, bounds:
// Lambda of construct()'s float32 X at d_min (its columns drawn again in pieces of the pending
// buffer: O(L d + nnz d)) and max |Z| of the logits the last check read (O(L^2 k)).
MinDResult min_d(const Pattern& A, const CheckedRequest& r, const Progress& progress = nullptr);

// The registry, in the order pages list them (jl, lp, moment, opt).
const std::vector<const ConstructionKind*>& constructions();
// The record called `name`; refuses another name (InvalidArgument naming "construction" and the
// allowed names).
const ConstructionKind& construction_kind(const std::string& name);
// Their names and infos, in registry order.
const std::vector<std::string>& construction_names();
const std::vector<ConstructionInfo>& construction_infos();

// The records of core/constructions/ (one per construction file; the registry lists them).
const ConstructionKind& jl_kind();
const ConstructionKind& lp_kind();
const ConstructionKind& moment_kind();
const ConstructionKind& opt_kind();

}  // namespace attnx
