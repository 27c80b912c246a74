// attnx package test: a program outside the project that links attnx::core.
// Usage: attnx_consumer L k d seed
// Draws the random pattern the CLI draws for `attnx construct --pattern random --L L --k k
// --seed seed`, runs the construction with hidden size d through the checked request, and prints one line
//   attnx-consumer: version=V flavour=F success=true|false rho=R
// with R in shortest round-trip form (as the CLI's JSON writes it). Exit 1 with a message on
// bad input (the core's messages name the field and the allowed range).
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

#include <attnx/construction.hpp>
#include <attnx/pattern.hpp>
#include <attnx/rng.hpp>

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: attnx_consumer L k d seed\n");
    return 1;
  }
  try {
    attnx::PatternSpec spec;  // family random, uniform weights
    spec.L = std::stoi(argv[1]);
    spec.k = std::stoi(argv[2]);
    const int d = std::stoi(argv[3]);
    const std::uint64_t seed = std::stoull(argv[4]);

    attnx::Rng rng(attnx::pattern_seed(seed));
    const attnx::Pattern A = attnx::make_pattern(spec, rng);
    attnx::ConstructionRequest request;  // jl, the paper's construction (SPEC §3)
    request.d = d;
    request.seed = seed;
    const attnx::BuiltInputs built = attnx::build_inputs(A, attnx::check_request(request, attnx::Purpose::Build));
    const attnx::Construction& c = built.c;

    char rho[64];
    *std::to_chars(rho, rho + sizeof rho - 1, c.metrics.rho).ptr = '\0';
    std::printf("attnx-consumer: version=%s flavour=%s success=%s rho=%s\n", ATTNX_VERSION,
                ATTNX_FLAVOUR, c.metrics.success ? "true" : "false", rho);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attnx_consumer: %s\n", e.what());
    return 1;
  }
}
