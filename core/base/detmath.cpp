#include <attnx/detmath.hpp>

#include <cmath>
#include <limits>

namespace attnx {

namespace {
constexpr double kLn2Hi = 6.93147180369123816490e-01;  // fdlibm split of ln 2
constexpr double kLn2Lo = 1.90821492927058770002e-10;
}  // namespace

double det_log(double x) {
  if (!(x > 0)) return x == 0 ? -std::numeric_limits<double>::infinity()
                              : std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(x)) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // x = m 2^e, m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    e -= 1;
  }
  // ln m = 2 atanh(s), s = (m-1)/(m+1), |s| <= 0.1716
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  // Series: s + s^3/3 + s^5/5 + ... ; 2 * sum of 13 terms reaches < 1e-19 relative.
  double acc = 1.0 / 27.0;
  for (int n = 25; n >= 3; n -= 2) acc = 1.0 / n + s2 * acc;
  const double sum = s + s * s2 * acc;
  const double ed = static_cast<double>(e);
  return (ed * kLn2Hi) + (2.0 * sum + ed * kLn2Lo);
}

double det_exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();
  if (x < -745.2) return 0.0;
  // x = n ln2 + r, |r| <= ln2/2
  const double nd = std::nearbyint(x * 1.44269504088896340736);
  const int n = static_cast<int>(nd);
  const double r = (x - nd * kLn2Hi) - nd * kLn2Lo;
  // Taylor to degree 20 (|r| <= 0.347: last term < 1e-28), Horner.
  double p = 1.0;
  for (int i = 20; i >= 1; --i) p = 1.0 + p * r / i;
  return std::ldexp(p, n);
}

namespace {
// 1 / i for exp_near's Taylor polynomial.
constexpr double kInv[15] = {0,       1.0,      1.0 / 2,  1.0 / 3,  1.0 / 4,
                             1.0 / 5, 1.0 / 6,  1.0 / 7,  1.0 / 8,  1.0 / 9,
                             1.0 / 10, 1.0 / 11, 1.0 / 12, 1.0 / 13, 1.0 / 14};
}  // namespace

// det_exp's reduction, Taylor to degree 14 (|r| <= 0.347: the first term left out is below
// 5e-19) with multiplications by 1/i.
double exp_near(double x) {
  const double nd = std::nearbyint(x * 1.44269504088896340736);
  const double r = (x - nd * kLn2Hi) - nd * kLn2Lo;
  double p = 1.0;
  for (int i = 14; i >= 1; --i) p = 1.0 + p * (r * kInv[i]);
  return std::ldexp(p, static_cast<int>(nd));
}

bool below_det_exp(double y, double x) {
  return std::fabs(x) <= 700.0 ? below_det_exp_near(y, x, exp_near(x)) : y < det_exp(x);
}

bool below_det_exp_near(double y, double x, double e) {
  if (!(std::fabs(x) <= 700.0) || !std::isfinite(y)) return y < det_exp(x);
  if (y < e * (1.0 - 1e-12)) return true;
  if (y > e * (1.0 + 1e-12)) return false;
  return y < det_exp(x);
}

}  // namespace attnx
