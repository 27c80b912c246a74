#!/usr/bin/env bash
# attnx package test (ctest: package_consumer).
# Usage: run.sh BUILD_DIR ATTNX_CLI [CXX_COMPILER]
# Installs the configured and built BUILD_DIR into a temporary prefix, configures and builds
# tests/package/consumer against that prefix with find_package(attnx), runs it and checks that
#  - attnx was found in the temporary prefix (not in the source or build tree),
#  - the consumer was compiled with the core's floating-point flags (from attnx::core alone),
#  - the consumer prints its result line with the version and flavour the CLI reports, and
#  - success and rho equal what `ATTNX_CLI construct` prints for the same flags.
# Uses no network. Runs $CMAKE (ctest passes its own cmake), else cmake from PATH.
# Exit 0 when every check passes; otherwise 1 with a message on stderr.
set -euo pipefail

build_dir=${1:?usage: run.sh BUILD_DIR ATTNX_CLI [CXX_COMPILER]}
cli=${2:?usage: run.sh BUILD_DIR ATTNX_CLI [CXX_COMPILER]}
cxx=${3:-}
cmake=${CMAKE:-cmake}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/attnx-package.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "package test: $*" >&2; exit 1; }

# JSON value of "key" in the CLI's pretty-printed output (one key per line).
json_field() { sed -n "s/^ *\"$1\": \\([^,]*\\),\\{0,1\\}\$/\\1/p" <<<"$2" | head -n 1; }

"$cmake" --install "$build_dir" --prefix "$work/prefix" >"$work/install.log" ||
  { cat "$work/install.log" >&2; fail "cmake --install $build_dir failed"; }
[ -f "$work/prefix/include/attnx/construct.hpp" ] || fail "headers not installed"

"$cmake" -S "$here/consumer" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"} >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log" >&2; fail "consumer configure failed"; }
found=$(sed -n 's/^attnx_DIR:PATH=//p' "$work/build/CMakeCache.txt")
case "$found" in
  "$work/prefix"/*) ;;
  *) fail "find_package(attnx) used '$found', not the installed prefix $work/prefix" ;;
esac
"$cmake" --build "$work/build" >"$work/build.log" 2>&1 ||
  { cat "$work/build.log" >&2; fail "consumer build failed"; }
for flag in -ffp-contract=off -fno-fast-math; do
  grep -q -e "$flag" "$work/build/compile_commands.json" ||
    fail "main.cpp was compiled without $flag (attnx::core's interface lost it)"
done

# "attnx 0.1.0 (native-portable; ...)" -> "0.1.0 native-portable"
read -r _ cli_version cli_flavour _ <<<"$("$cli" --version | tr -d '(;')"

# One case that passes and one that fails the criterion: success must match both ways.
check_case() {  # L k d seed expected_success
  local line json cli_rho cli_success
  line=$("$work/build/attnx_consumer" "$1" "$2" "$3" "$4") ||
    fail "consumer failed for L k d seed = $1 $2 $3 $4"
  echo "$line"
  json=$("$cli" construct --pattern random --L "$1" --k "$2" --d "$3" --seed "$4")
  cli_rho=$(json_field rho "$json")
  cli_success=$(json_field success "$json")
  [ -n "$cli_rho" ] || fail "no rho in the CLI output"
  [ "$cli_success" = "$5" ] || fail "CLI success is '$cli_success' for $1 $2 $3 $4, the case expects $5"
  local want="attnx-consumer: version=$cli_version flavour=$cli_flavour"
  want+=" success=$cli_success rho=$cli_rho"
  [ "$line" = "$want" ] || fail "consumer printed '$line', expected '$want'"
}
check_case 64 2 2048 3 true
check_case 64 3 128 7 false
echo "package test: ok"
