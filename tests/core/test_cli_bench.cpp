// attnx bench (not --scaling): the fields it always had, plus the Gram kernels it timed, the kernel
// the search used and the single-core peak measured by the same binary. Timings are only checked
// to be positive and consistent with each other (no wall-clock thresholds).
#include <doctest/doctest.h>

#include <string>

#include "cli_run.hpp"
#include <attnx/gram.hpp>
#include <attnx/json.hpp>

using cli_test::run_cli;

TEST_CASE("bench names the kernel it used and times every kernel that runs here against the peak") {
  if (!cli_test::cli_available()) return;
  const auto r = run_cli({"bench", "--Ls", "64,100", "--trials", "1", "--gemm-reps", "1"});
  REQUIRE(r.status == 0);
  const attnx::JsonValue j = attnx::json_parse(r.out);
  const std::string used = j.find("gram_kernel")->str;
  CHECK(used == attnx::gram_kernel_name());
  const auto& listed = j.find("gram_kernels")->arr;
  REQUIRE(listed.size() == attnx::gram_kernels_available().size());
  for (std::size_t q = 0; q < listed.size(); ++q)
    CHECK(listed[q].str == attnx::gram_kernel_label(attnx::gram_kernels_available()[q]));
  const attnx::JsonValue* peak = j.find("peak");
  CHECK(peak->find("gflops")->num > 0);
  CHECK(peak->find("mul_add_gflops")->num > 0);
  CHECK(!peak->find("isa")->str.empty());
  const auto& results = j.find("results")->arr;
  REQUIRE(results.size() == 2u);
  for (const auto& row : results) {
    for (const char* old : {"d_mins", "seconds_per_trial", "trial_gflops", "gemm", "ratio", "time_ratio"})
      CHECK(row.find(old) != nullptr);
    const int L = static_cast<int>(row.find("L")->num);
    const attnx::JsonValue* gram = row.find("gram");
    REQUIRE(gram != nullptr);
    CHECK(gram->find("n")->num == 256);
    CHECK(gram->find("madds")->num == doctest::Approx(L * (L + 1) / 2.0 * 256));
    CHECK(gram->find("kernel")->str == used);
    const auto& ks = gram->find("kernels")->arr;
    REQUIRE(ks.size() == listed.size());
    for (std::size_t q = 0; q < ks.size(); ++q) {
      CHECK(ks[q].find("kernel")->str == listed[q].str);
      const double s = ks[q].find("seconds")->num, gf = ks[q].find("gflops")->num;
      CHECK(s > 0);
      CHECK(gf == doctest::Approx(2 * gram->find("madds")->num / s / 1e9));
      CHECK(ks[q].find("peak_fraction")->num == doctest::Approx(gf / peak->find("gflops")->num));
      if (ks[q].find("kernel")->str == used) CHECK(gram->find("gflops")->num == gf);
    }
  }
}

TEST_CASE("bench text and csv name the kernel, the peak and each kernel's share of it") {
  if (!cli_test::cli_available()) return;
  const auto t = run_cli({"bench", "--Ls", "64", "--trials", "1", "--gemm-reps", "1", "--format", "text"});
  REQUIRE(t.status == 0);
  CHECK(t.out.find(std::string("gram kernel ") + attnx::gram_kernel_name()) != std::string::npos);
  CHECK(t.out.find("% of the FMA peak; peak ") != std::string::npos);
  for (attnx::GramKernel k : attnx::gram_kernels_available())
    CHECK(t.out.find(attnx::gram_kernel_label(k)) != std::string::npos);
  const auto c = run_cli({"bench", "--Ls", "64", "--trials", "1", "--gemm-reps", "1", "--format", "csv"});
  REQUIRE(c.status == 0);
  CHECK(c.out.rfind("L,trials,d_min_median,seconds_per_trial,madds_per_trial,trial_gflops,gemm_d,"
                    "gemm_seconds,gemm_gflops,ratio,time_ratio,flavour,gram_kernel,eigen_simd,"
                    "gram_n,gram_gflops,peak_isa,peak_gflops,gram_peak_fraction\n64,1,", 0) == 0);
}
