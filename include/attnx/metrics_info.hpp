// attnx core: what each reported number means (SPEC §2, §3.5, §8.2–8.4), one sentence each, in
// the words every page and the CLI's docs use. The pages read these from the schema document
// (schema_doc.hpp); nothing else writes a metric's meaning.
#pragma once
#include <string>
#include <vector>

namespace attnx {

struct MetricInfo {
  std::string key;     // the result's field: "rho", "zeta", "inputNorm", ...
  std::string symbol;  // "ρ", "ζ", "" when it has none
  std::string label;   // "ratio error"
  std::string help;    // one sentence: what it measures and what it is compared with
};

// Every metric a construct result, its precision report or its LP report holds, in the order the
// pages show them.
const std::vector<MetricInfo>& metric_infos();
// The metric called `key`; throws std::logic_error for an unknown key (a bug).
const MetricInfo& metric_info(const std::string& key);

}  // namespace attnx
