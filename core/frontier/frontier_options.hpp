// attnx core (internal): the frontier's options as JSON, written by frontier_io.cpp for outputs and
// parts and read back by frontier_part.cpp (the same text for the same options: parts compare it).
#pragma once
#include <attnx/frontier.hpp>
#include <attnx/json.hpp>

namespace attnx {

void write_frontier_options(JsonWriter& w, const FrontierOptions& o);

}  // namespace attnx
