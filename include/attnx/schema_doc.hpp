// attnx core: the schema document, everything the pages and other callers need to know of the
// core's rules as one JSON text: every option (kind, range, default, label, unit, help sentence,
// when it applies), the pattern families and weightings, the constructions' properties, the
// metrics' meanings, each context's defaults and limits, the frozen link tables, the presets and
// the pages' limits. The WebAssembly module hands this text to JavaScript (web/lib/attnx.js
// schema() parses it), so the binding converts nothing by hand.
#pragma once
#include <string>

namespace attnx {

// The schema document (JSON, deterministic; see web/lib/attnx.js schema() for its shape).
// Built once per call from the tables of schema.hpp, pattern.hpp, construction.hpp and
// metrics_info.hpp; about 20 KB.
std::string schema_json();

}  // namespace attnx
