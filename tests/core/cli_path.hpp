// The attnx CLI the doctest suite runs: its path in this build (tests/core/cli_path.cpp, the one
// file compiled with ATTNX_CLI_PATH, so the other test files do not depend on where the build
// folder is and stay ccache hits in another clone).
#pragma once

namespace cli_test {
const char* cli_path();
}  // namespace cli_test
