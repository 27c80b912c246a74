// attnx core: the JavaScript API's calls on a model's attention file (web/lib/attnx.js
// readAttention, importHead, surveyHead; issue 24): the file's bytes as the caller hands them over
// (the WebAssembly module copies a Uint8Array once into `bytes`), read by read_attention, one head
// imported or surveyed as `attnx import` does it. Each call reads the file again (O(file), small
// beside a survey's searches), so a worker pool can run one head per worker with no shared state.
// Options are the option table's (layer, head, rule, softmax, eps, tau, seed, maxBytes) with its
// defaults, and fixedBudget (true: the caller cannot raise maxBytes, as the explorer page cannot;
// a refusal over the budget then suggests attnx import instead, see BudgetRemedy); refusals name
// them, and a refusal of the file's contents is InvalidArgument("file", "NAME: ...") as the CLI
// words it.
#pragma once
#include <string>

#include "head_survey.hpp"
#include "json.hpp"
#include "pattern_io.hpp"

namespace attnx {

// readAttention(bytes, name, { maxBytes, fixedBudget }): the file's format, dtype, shape and tokens. name: a
// string that starts every message (absent: "attention"). values are dropped (importHead hands a
// head's over). Cost: read_attention's.
AttentionArray read_attention_call(const std::string& bytes, const JsonValue& name, const JsonValue& opts);

// importHead(bytes, name, { layer, head, rule, softmax, maxBytes, fixedBudget }): import_file_head with the
// head's dense probabilities (after the softmax when asked), and the target as `attnx import --out`
// writes it (pattern_text) and as parsePattern reads that text back (pattern: the custom pattern
// the explorer draws and constructs, the CLI's --pattern-file of the same bytes).
struct ImportHeadCall {
  JsonValue params;  // { file, format, dtype, shape, layer, head, rule, softmax, maxBytes }
  std::vector<std::string> tokens;
  HeadImport h;
  std::string pattern_text;
  PatternTriplets pattern;
};
ImportHeadCall import_head_call(const std::string& bytes, const JsonValue& name, const JsonValue& opts);

// surveyHead(bytes, name, { layer, head, rule, softmax, eps, tau, seed, maxBytes, fixedBudget }, progress): one
// row of `attnx import --all` (survey_file_head: the description and the minimal d of jl and lp).
// progress returning false stops it (cancelled = true).
SurveyRow survey_head_call(const std::string& bytes, const JsonValue& name, const JsonValue& opts,
                           const Progress& progress);

}  // namespace attnx
