#include "cli_path.hpp"

namespace cli_test {
const char* cli_path() { return ATTNX_CLI_PATH; }
}  // namespace cli_test
