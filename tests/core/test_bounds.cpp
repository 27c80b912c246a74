// SPEC §9's bounds (bounds.hpp): the floors against hand-computed values and libm, the counting
// floors against exact counts of k-regular patterns, n of hand patterns against a set of their
// columns, Lambda and w of a hand-built X, the packing lemma on adversarial point sets.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <set>
#include <vector>

#include "helpers.hpp"
#include <attnx/bounds.hpp>
#include <attnx/inputs.hpp>
#include <attnx/rng.hpp>
#include <attnx/json.hpp>
#include <attnx/schema.hpp>
#include <attnx/schema_doc.hpp>

namespace {

const double kInf = std::numeric_limits<double>::infinity();

attnx::Pattern generated(attnx::Family f, int L, std::uint64_t seed, int k = 2) {
  attnx::PatternSpec s;
  s.family = f;
  s.L = L;
  s.k = k;
  attnx::Rng rng(seed);
  return attnx::make_pattern(s, rng);
}

// n by brute force: the set of the columns' row sets.
int column_supports_by_set(const attnx::Pattern& A) {
  std::vector<std::vector<int>> cols(static_cast<std::size_t>(A.L));
  for (int i = 0; i < A.L; ++i)
    for (int e = A.row_begin(i); e < A.row_end(i); ++e) cols[A.col[e]].push_back(i);
  return static_cast<int>(std::set<std::vector<int>>(cols.begin(), cols.end()).size());
}

// The number of L x L 0/1 matrices with every row and column sum k, by enumeration (tiny L).
long long count_regular(int L, int k) {
  std::vector<int> rows;  // bit masks with k bits
  for (int m = 0; m < (1 << L); ++m)
    if (__builtin_popcount(m) == k) rows.push_back(m);
  long long count = 0;
  std::vector<int> colsum(L, 0);
  std::function<void(int)> go = [&](int i) {
    if (i == L) {
      ++count;
      return;
    }
    for (int m : rows) {
      bool ok = true;
      for (int j = 0; j < L; ++j) ok = ok && colsum[j] + ((m >> j) & 1) <= k;
      if (!ok) continue;
      for (int j = 0; j < L; ++j) colsum[j] += (m >> j) & 1;
      go(i + 1);
      for (int j = 0; j < L; ++j) colsum[j] -= (m >> j) & 1;
    }
  };
  go(0);
  return count;
}

}  // namespace

TEST_CASE("the packing floor at Lambda = 5, tau = 0.1, n = 1024 is 4.136 (SPEC 9.2's example)") {
  // ln 1024 / ln(1 + 10 / ln 10) = 6.931472 / 1.675777 = 4.136273 (by hand, 7 digits).
  CHECK(attnx::packing_floor(5, 1024, 0.1) == doctest::Approx(4.136273).epsilon(1e-6));
  CHECK(attnx::packing_floor(5, 1024, 0.1) ==
        doctest::Approx(std::log(1024.0) / std::log1p(10 / std::log(10.0))).epsilon(1e-14));
  CHECK(attnx::packing_floor(5, 2, 0.5) ==
        doctest::Approx(std::log(2.0) / std::log1p(10 / std::log(2.0))).epsilon(1e-14));
}

TEST_CASE("the packing floor at a scale whose 2 scale / ln(1/tau) overflows is still ln n / ln(2 scale / ln(1/tau))") {
  // 2e308 / ln 10 is beyond the largest double; the floor is not 0 but about 0.00587 for n = 64.
  const double want = std::log(64.0) / (std::log(2.0) + std::log(1e308) - std::log(std::log(10.0)));
  CHECK(attnx::packing_floor(1e308, 64, 0.1) == doctest::Approx(want).epsilon(1e-12));
  CHECK(attnx::packing_floor(1e307, 64, 0.1) > attnx::packing_floor(1e308, 64, 0.1));  // still falling
  CHECK(attnx::packing_floor(1e307, 64, 0.1) == doctest::Approx(std::log(64.0) / std::log1p(2e307 / std::log(10.0))).epsilon(1e-12));
  CHECK(attnx::packing_floor(INFINITY, 64, 0.1) == 0);
}

TEST_CASE("the packing floor's edges: n = 1 has no floor, scale 0 has no X, tiny scales keep their digits") {
  CHECK(attnx::packing_floor(5, 1, 0.1) == 0);
  CHECK(attnx::packing_floor(0, 1, 0.1) == 0);
  CHECK(attnx::packing_floor(0, 2, 0.1) == kInf);
  CHECK(attnx::packing_floor(kInf, 7, 0.1) == 0);
  CHECK(std::isnan(attnx::packing_floor(std::nan(""), 7, 0.1)));
  // ln(1 + x) for x = 2e-12 / ln 10: 1 + x alone would keep 4 digits of x.
  const double x = 2e-12 / std::log(10.0);
  CHECK(attnx::packing_floor(1e-12, 2, 0.1) == doctest::Approx(std::log(2.0) / std::log1p(x)).epsilon(1e-12));
  CHECK(attnx::times_floor(40, 4) == 10);
  CHECK(std::isnan(attnx::times_floor(40, 0)));
  CHECK(std::isnan(attnx::times_floor(40, kInf)));
}

TEST_CASE("the bits floors at L = 1024, k = 2 are 18.9986 and 4.2817 bits (SPEC 9.3's examples)") {
  CHECK(attnx::bits_fixed_keys(1024, 2) == doctest::Approx(18.9986).epsilon(1e-5));
  CHECK(attnx::bits_fixed_keys(1024, 2) == doctest::Approx(std::log2(1024.0 * 1023.0 / 2.0)).epsilon(1e-14));
  CHECK(attnx::bits_free_keys(1024, 2) == doctest::Approx(4.2817).epsilon(1e-5));
  // The counting floor over every 2-regular target, by hand: (2 log2 L! + L log2(1 - 1/L) - L/2) / (2L).
  const double lf = std::lgamma(1025.0) / std::log(2.0);
  CHECK(attnx::bits_free_keys_regular(1024, 2) ==
        doctest::Approx((2 * lf + 1024 * std::log2(1023.0 / 1024.0) - 512) / 2048).epsilon(1e-12));
}

TEST_CASE("log2 L! and log2 C(L, k) agree with lgamma up to L = 16384") {
  for (int L : {1, 2, 3, 10, 100, 1000, 4096, 16383, 16384}) {
    CHECK(attnx::log2_factorial(L) == doctest::Approx(std::lgamma(L + 1.0) / std::log(2.0)).epsilon(1e-11));
    for (int k : {0, 1, 2, 3, L / 2, L - 1, L}) {
      if (k < 0 || k > L) continue;
      const double ref = (std::lgamma(L + 1.0) - std::lgamma(k + 1.0) - std::lgamma(L - k + 1.0)) / std::log(2.0);
      CHECK(attnx::log2_binomial(L, k) == doctest::Approx(ref).epsilon(1e-10).scale(1));
    }
  }
}

TEST_CASE("the counting floors stay below log2 of the exact number of k-regular patterns (tiny L)") {
  for (int L = 2; L <= 6; ++L)
    for (int k = 1; k <= L; ++k) {
      const double exact = std::log2(double(count_regular(L, k)));
      CAPTURE(L);
      CAPTURE(k);
      CHECK(2 * L * attnx::bits_free_keys_regular(L, k) <= exact + 1e-12);
      CHECK(2 * L * attnx::bits_free_keys(L, k) <= exact + 1e-12);
      CHECK(attnx::bits_free_keys_regular(L, k) >= attnx::bits_free_keys(L, k) - 1e-12);
    }
  CHECK(count_regular(4, 2) == 90);    // OEIS A001499
  CHECK(count_regular(5, 2) == 2040);
  CHECK(attnx::bits_free_keys(6, 6) == 0);  // one pattern: all ones
  CHECK(attnx::bits_free_keys_regular(1024, 1) == doctest::Approx(attnx::bits_free_keys(1024, 1)).epsilon(1e-12));
  for (int L : {64, 1024, 16384})  // about twice the L! floor for k = 2
    CHECK(attnx::bits_free_keys_regular(L, 2) > 1.85 * attnx::bits_free_keys(L, 2));
}

TEST_CASE("the bits floors refuse k outside 1..L naming k") {
  CHECK(th::invalid([] { attnx::bits_fixed_keys(4, 5); }).field() == "k");
  CHECK(th::invalid([] { attnx::bits_free_keys(4, 0); }).field() == "k");
  const auto e = th::invalid([] { attnx::floors_at(4, 5, 0.1); });
  CHECK(e.field() == "k");
  CHECK(std::string(e.what()) == "k must be an integer from 1 to 4 (got 5)");
  CHECK(std::string(th::invalid([] { attnx::floors_at(64, 2, 1.0); }).what()) == "tau must be a number in (0, 1) (got 1)");
  CHECK(std::string(th::invalid([] { attnx::floors_at(64, 2, 0.1, true, 0); }).what()) ==
        "logitScale must be a finite number > 0 (got 0)");
  CHECK(th::invalid([] { attnx::floors_at(64, 2, 0.1, true, kInf); }).field() == "logitScale");
  const attnx::FloorsAtL f = attnx::floors_at(1024, 2, 0.1, true, 5);
  CHECK(f.column_supports == 1024);
  CHECK(f.d_lambda == attnx::packing_floor(5, 1024, 0.1));
  CHECK_FALSE(attnx::floors_at(1024, 2, 0.1).has_scale);
  CHECK(attnx::floors_at(8, 8, 0.1, true, 5).d_lambda == 0);  // k = L: one target, one support
  CHECK(f.moment_d == 4);  // SPEC 8.3: D = 2m, m = k = 2
  CHECK(attnx::floors_at(64, 3, 0.1).moment_d == 6);
}

TEST_CASE("n counts the distinct column supports of hand patterns (an empty column counts once)") {
  CHECK(attnx::distinct_column_supports(generated(attnx::Family::Permutation, 32, 1)) == 32);
  attnx::PatternSpec w;
  w.family = attnx::Family::Window;
  w.L = 8;
  w.w = 1;  // column j: rows j-1, j, j+1: all different
  attnx::Rng rng(1);
  CHECK(attnx::distinct_column_supports(attnx::make_pattern(w, rng)) == 8);
  w.family = attnx::Family::Block;
  w.block = 4;  // the 4 columns of a block share its 4 rows
  CHECK(attnx::distinct_column_supports(attnx::make_pattern(w, rng)) == 2);
  const auto pairs = th::from_rows(4, {{{0, 1}, {1, 1}}, {{0, 1}, {1, 1}}, {{2, 1}, {3, 1}}, {{2, 1}, {3, 1}}});
  CHECK(attnx::distinct_column_supports(pairs) == 2);
  // Columns 2 and 3 are held by no row: one support, the empty set, besides {0, 1, 2} and {3}.
  const auto empty = th::from_rows(4, {{{0, 1}}, {{0, 1}}, {{0, 1}}, {{1, 1}}});
  CHECK(attnx::distinct_column_supports(empty) == 3);
}

TEST_CASE("n equals the size of the set of column supports for every family (brute force)") {
  for (auto f : {attnx::Family::Random, attnx::Family::Window, attnx::Family::Dilated, attnx::Family::Strided,
                 attnx::Family::BigBird, attnx::Family::Causal, attnx::Family::Block})
    for (int L : {8, 33, 200})
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        const attnx::Pattern A = generated(f, L, seed, L >= 8 ? 3 : 1);
        CHECK(attnx::distinct_column_supports(A) == column_supports_by_set(A));
      }
}

TEST_CASE("Lambda and w of a hand-built X") {
  // X = [Q | K], D = 2: ||Q_0|| = 5, ||Q_1|| = 1, ||K_0|| = 1, ||K_1|| = 2: Lambda = 5 * 2 / sqrt 2.
  const std::vector<float> X = {3, 4, 1, 0, 0, 1, 0, 2};
  CHECK(attnx::input_scale(X.data(), 2, 2) == doctest::Approx(5 * std::sqrt(2.0)).epsilon(1e-15));
  // Exponents (x = m 2^e, 0.5 <= |m| < 1): 0.75 -> 0, 3 -> 2, -0.5 -> 0, 12 -> 4: 5 values, 3 bits.
  CHECK(attnx::exponent_bits({0.75, 3, -0.5, 0, 12}, 53) == 3);
  CHECK(attnx::exponent_bits({0.75, 0.5}, 53) == 0);
  CHECK(attnx::exponent_bits({0, 0}, 53) == 0);
  // Rounded to 2 bits 0.99 becomes 1 (exponent 1), beside 0.5 (exponent 0): 1 bit.
  CHECK(attnx::exponent_bits({0.99, 0.5}, 2) == 1);
  CHECK(attnx::bits_per_number(5, 3) == 9);
  CHECK(attnx::bits_per_number(0, 3) == 0);  // bits(X) not reached
  CHECK(attnx::max_abs(std::vector<double>{1, -7, 3}.data(), 3) == 7);
  CHECK(std::isnan(attnx::max_abs(std::vector<double>{1, std::nan(""), 3}.data(), 3)));
}

TEST_CASE("bounds_of reads n, both packing floors and the bits floors at the pattern's L and k") {
  const attnx::Pattern A = th::random_pattern(64, 2, 3);
  const attnx::Bounds b = attnx::bounds_of(A, 0.1, 40, 5, 4);
  CHECK(b.column_supports == column_supports_by_set(A));
  CHECK(b.d_lambda == attnx::packing_floor(5, b.column_supports, 0.1));
  CHECK(b.d_logit == attnx::packing_floor(4, b.column_supports, 0.1));
  CHECK(b.d_logit > b.d_lambda);  // a smaller scale, a higher floor
  CHECK(b.ratio == 40 / b.d_lambda);
  CHECK(b.bits_fixed_keys == attnx::bits_fixed_keys(64, 2));
  const attnx::Bounds u = attnx::bounds_of(A, 0.1, 40, -1, -1);
  CHECK(std::isnan(u.d_lambda));
  CHECK(std::isnan(u.ratio_logit));
  // bound_values lists the keys of bound_infos (less the per-trial ones) in its order.
  std::vector<std::string> keys;
  for (const auto& kv : attnx::bound_values(b)) keys.push_back(kv.first);
  std::vector<std::string> table;
  for (const auto& i : attnx::bound_infos())
    if (i.key != "logit_scales" && i.key != "max_abs_logits") table.push_back(i.key);
  CHECK(keys == table);
  CHECK(std::isnan(attnx::bound_values(u)[0].second));  // unknown Lambda: NaN (null in JSON)
}

TEST_CASE("the packing lemma holds on lattices and greedy packings: n <= (1 + 2R/r)^D, equality on a line") {
  // The floor at scale R with Delta = r (tau = e^-r) is the D below which n points r apart within
  // radius R cannot exist. On a line, points r apart filling [-R, R] make it an equality.
  for (int m = 1; m <= 20; ++m) {
    const double r = 0.37, R = m * r / 2;  // n = 2R/r + 1 = m + 1 points
    CHECK(attnx::packing_floor(R, m + 1, std::exp(-r)) == doctest::Approx(1.0).epsilon(1e-12));
  }
  attnx::Rng rng(11);
  for (int D = 1; D <= 3; ++D)
    for (double R : {0.5, 1.0, 3.0}) {
      const double r = 0.4;
      std::vector<std::vector<double>> kept;
      for (int trial = 0; trial < 20000; ++trial) {  // greedy: random points of the ball, r apart
        std::vector<double> p(D);
        double n2 = 0;
        for (double& x : p) n2 += (x = (2 * rng.uniform() - 1) * R) * x;
        if (n2 > R * R) continue;
        bool far = true;
        for (const auto& q : kept) {
          double d2 = 0;
          for (int t = 0; t < D; ++t) d2 += (p[t] - q[t]) * (p[t] - q[t]);
          far = far && d2 >= r * r;
        }
        if (far) kept.push_back(p);
      }
      CAPTURE(D);
      CAPTURE(R);
      REQUIRE(kept.size() > 1);
      CHECK(attnx::packing_floor(R, int(kept.size()), std::exp(-r)) <= D);
    }
}

TEST_CASE("the schema document carries each bound's symbol, label and one-sentence meaning") {
  const attnx::JsonValue doc = attnx::json_parse(attnx::schema_json());
  const attnx::JsonValue* b = doc.find("bounds");
  REQUIRE(b);
  REQUIRE(b->obj.size() == attnx::bound_infos().size());
  for (const auto& info : attnx::bound_infos()) {
    const attnx::JsonValue* e = b->find(info.key);
    REQUIRE(e);
    CHECK(e->find("help")->str == info.help);
    CHECK_FALSE(info.help.empty());
  }
  CHECK(b->find("d_lambda")->find("symbol")->str == "D_Λ");
  // Each construction names the SPEC 9.3 floor that holds for it, a key of that table.
  const attnx::JsonValue& cons = *doc.find("constructions");
  REQUIRE(cons.arr.size() == 4);
  CHECK(cons.arr[0].find("bitsFloor")->str == "bits_fixed_keys");  // jl: K = P fixed first
  CHECK(cons.arr[1].find("bitsFloor")->str == "bits_fixed_keys");  // lp: the same keys
  CHECK(cons.arr[2].find("bitsFloor")->str == "bits_free_keys");   // moment: keys with the target
  CHECK(cons.arr[3].find("bitsFloor")->str == "bits_free_keys");   // opt: keys searched with the queries
  for (const auto& c : cons.arr) CHECK(b->find(c.find("bitsFloor")->str));
  const attnx::JsonValue* scale = doc.find("options")->find("logitScale");
  REQUIRE(scale);
  CHECK(scale->find("default")->num == attnx::kDefaultLogitScale);
  CHECK(attnx::option_info("logitScale").flag == "scale");
}
