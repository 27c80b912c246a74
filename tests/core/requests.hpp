// Checked requests (construction.hpp) as the core tests build them: the fields a test sets, every
// other field its default, checked by the core's one check_request.
#pragma once
#include <cstdint>
#include <string>

#include <attnx/construction.hpp>

namespace th {

// A Build request of `construction` at hidden size d.
inline attnx::CheckedRequest build(const std::string& construction, const attnx::Tolerances& tol, int d,
                                   std::uint64_t seed, double box = attnx::kDefaultLpBox,
                                   std::uint64_t max_bytes = attnx::kDefaultMaxBytes,
                                   attnx::ProjectionKind kind = attnx::ProjectionKind::Gaussian) {
  attnx::ConstructionRequest r;
  r.construction = construction;
  r.tol = tol;
  r.d = d;
  r.seed = seed;
  r.box = box;
  r.mind.max_bytes = max_bytes;
  r.mind.projection = kind;
  return attnx::check_request(r, attnx::Purpose::Build);
}

// A jl Build request (construct()).
inline attnx::CheckedRequest jl(const attnx::Tolerances& tol, int d, std::uint64_t seed,
                                std::uint64_t max_bytes = attnx::kDefaultMaxBytes,
                                attnx::ProjectionKind kind = attnx::ProjectionKind::Gaussian) {
  return build("jl", tol, d, seed, attnx::kDefaultLpBox, max_bytes, kind);
}

// A Search request of `construction` on the grid, budget and projection of opt.
inline attnx::CheckedRequest search(const std::string& construction, const attnx::Tolerances& tol,
                                    const attnx::MinDOptions& opt, std::uint64_t seed,
                                    double box = attnx::kDefaultLpBox) {
  attnx::ConstructionRequest r;
  r.construction = construction;
  r.tol = tol;
  r.mind = opt;
  r.seed = seed;
  r.box = box;
  return attnx::check_request(r, attnx::Purpose::Search);
}

}  // namespace th

namespace th {

// request r with the tolerances tol, checked as a Build request (build_inputs).
inline attnx::CheckedRequest checked(attnx::ConstructionRequest r, const attnx::Tolerances& tol) {
  r.tol = tol;
  return attnx::check_request(r, attnx::Purpose::Build);
}

}  // namespace th
