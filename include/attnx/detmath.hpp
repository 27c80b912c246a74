// attnx core: deterministic elementary functions.
// Built only from +, -, *, / and frexp/ldexp (all exact or correctly rounded under IEEE-754 with
// -ffp-contract=off), so every platform returns the same bits. Accuracy: a few ulp in double.
#pragma once

namespace attnx {

// Natural logarithm for finite x > 0.
double det_log(double x);
// e^x for finite x; underflows to 0 below about -745, overflows to +inf above about 709.
double det_exp(double x);
// Whether y < det_exp(x), for any finite x and y: the same answer as that comparison, usually
// without det_exp's 20 divisions. A cheaper approximation of e^x (relative error below 1e-14, as
// is det_exp's) decides whenever y lies more than 1e-12 of e^x away from it; det_exp decides the
// rest. The ziggurat's wedge test (rng.cpp) asks this about a million times a second.
bool below_det_exp(double y, double x);
// below_det_exp's approximation of e^x (for |x| <= 700; relative error below 1e-14): det_exp's
// reduction and a Taylor polynomial with no division. A pure function of x, so a caller may
// compute it early, for several x side by side, and decide later with below_det_exp_near.
double exp_near(double x);
// below_det_exp(y, x) given e = exp_near(x): the same answer.
bool below_det_exp_near(double y, double x, double e);

}  // namespace attnx
