// attnx core (internal): construct's logits, attention and row report made together (criterion.cpp).
#pragma once
#include <vector>

#include <attnx/construct.hpp>

namespace attnx {

// construct's logits Z = B G / d (L x L), attention M, row report and max |Z|, four rows at a
// time: each block's rows are judged while they are in cache, with the bits of logits_from_gram,
// softmax_rows, evaluate_rows and max_abs run one after the other (max |Z| is NaN when one is).
double logits_attention_rows(const Pattern& A, const std::vector<double>& B, const float* G,
                             const ProjectionScale& scale, const Tolerances& tol, float* Z, float* M,
                             RowReport& rows);

}  // namespace attnx
