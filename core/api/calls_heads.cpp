// attnx core: the JavaScript API's calls on attention files (see calls_heads.hpp).
#include <attnx/calls_heads.hpp>

#include <algorithm>

#include <attnx/call_options.hpp>
#include <attnx/call_values.hpp>
#include <attnx/errors.hpp>
#include <attnx/schema.hpp>

namespace attnx {

namespace {

// A head call's options, resolved against the option table's defaults.
struct HeadCallOptions {
  int layer = 0, head = 0;
  SurveyOptions survey;  // survey.head: rule, softmax, budget; tolerances and seed for the survey
};

long long int_option(const JsonValue& o, const char* name) {
  const JsonValue& v = member(o, name);
  return absent(&v) ? static_cast<long long>(option_info(name).def) : option_value(v, name, name);
}

double real_option(const JsonValue& o, const char* name) {
  const JsonValue& v = member(o, name);
  return absent(&v) ? option_info(name).def : number_value(v, name);
}

// The fixedBudget option: true where the caller offers no way to raise maxBytes (the explorer).
BudgetRemedy remedy_option(const JsonValue& o) {
  return flag_value(member(o, "fixedBudget"), "fixedBudget") ? BudgetRemedy::Fixed : BudgetRemedy::Raise;
}

HeadCallOptions read_head_options(const JsonValue& opts, bool survey) {
  std::vector<std::string> names = {"layer", "head", "rule", "softmax", "maxBytes", "fixedBudget"};
  if (survey) names.insert(names.end(), {"eps", "tau", "seed"});
  const JsonValue& o = options_value(opts, names);
  HeadCallOptions h;
  h.layer = static_cast<int>(int_option(o, "layer"));
  h.head = static_cast<int>(int_option(o, "head"));
  const JsonValue& rule = member(o, "rule");
  h.survey.head.rule = parse_rule(absent(&rule) ? option_info("rule").def_text : text_value(rule, "rule"));
  h.survey.head.softmax = flag_value(member(o, "softmax"), "softmax");
  h.survey.head.max_bytes = static_cast<std::uint64_t>(int_option(o, "maxBytes"));
  h.survey.head.remedy = remedy_option(o);
  if (!survey) return h;
  h.survey.tol.eps = real_option(o, "eps");
  h.survey.tol.tau = real_option(o, "tau");
  validate(h.survey.tol);
  h.survey.seed = static_cast<std::uint64_t>(int_option(o, "seed"));
  return h;
}

std::string file_name(const JsonValue& name) { return absent(&name) ? "attention" : text_value(name, "name"); }

JsonValue shape_value(const AttentionArray& a) {
  JsonValue s = JsonValue::array();
  for (int n : attention_shape(a)) s.arr.push_back(JsonValue::of(n));
  return s;
}

// importHead's params: what `attnx import` prints as its params, with the API's names.
JsonValue import_params(const std::string& file, const AttentionArray& a, const HeadCallOptions& h) {
  JsonValue p = JsonValue::object();
  p.set("file", JsonValue::of(file)).set("format", JsonValue::of(a.format)).set("dtype", JsonValue::of(a.dtype));
  p.set("shape", shape_value(a)).set("layer", JsonValue::of(h.layer)).set("head", JsonValue::of(h.head));
  p.set("rule", JsonValue::of(rule_text(h.survey.head.rule))).set("softmax", JsonValue::of(h.survey.head.softmax));
  return p.set("maxBytes", JsonValue::of(static_cast<double>(h.survey.head.max_bytes)));
}

}  // namespace

AttentionArray read_attention_call(const std::string& bytes, const JsonValue& name, const JsonValue& opts) {
  const std::string file = file_name(name);
  const JsonValue& o = options_value(opts, {"maxBytes", "fixedBudget"});
  AttentionArray a = read_attention(bytes, file, static_cast<std::uint64_t>(int_option(o, "maxBytes")), remedy_option(o));
  a.values = {};
  return a;
}

ImportHeadCall import_head_call(const std::string& bytes, const JsonValue& name, const JsonValue& opts) {
  const std::string file = file_name(name);
  const HeadCallOptions h = read_head_options(opts, false);
  const AttentionArray a = read_attention(bytes, file, h.survey.head.max_bytes, h.survey.head.remedy);
  ImportHeadCall r;
  r.h = import_file_head(a, h.layer, h.head, h.survey.head, file, true);
  r.params = import_params(file, a, h);
  r.tokens = a.tokens;
  r.pattern_text = pattern_to_json(r.h.target);
  r.pattern = parse_pattern_triplets(r.pattern_text, r.h.target.L);
  return r;
}

SurveyRow survey_head_call(const std::string& bytes, const JsonValue& name, const JsonValue& opts,
                           const Progress& progress) {
  const std::string file = file_name(name);
  HeadCallOptions h = read_head_options(opts, true);
  const AttentionArray a = read_attention(bytes, file, h.survey.head.max_bytes, h.survey.head.remedy);
  // The head's budget is what the file's values leave (as attnx import --all gives each thread).
  const std::uint64_t held = estimate_attention_bytes(0, a.values.size(), 0);
  h.survey.head.max_bytes = std::max<std::uint64_t>(h.survey.head.max_bytes > held ? h.survey.head.max_bytes - held : 0, 1);
  return survey_file_head(a, h.layer, h.head, h.survey, file, progress);
}

}  // namespace attnx
