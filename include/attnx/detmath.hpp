// attnx core: deterministic elementary functions.
// Built only from +, -, *, / and frexp/ldexp (all exact or correctly rounded under IEEE-754 with
// -ffp-contract=off), so every platform returns the same bits. Accuracy: a few ulp in double.
#pragma once

namespace attnx {

// Natural logarithm for finite x > 0.
double det_log(double x);
// e^x for finite x; underflows to 0 below about -745, overflows to +inf above about 709.
double det_exp(double x);

}  // namespace attnx
