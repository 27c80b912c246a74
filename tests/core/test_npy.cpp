// The .npy reader (issue 24): files built here byte by byte for every float dtype, both byte
// orders, C and Fortran order, ranks 2 to 4 and format versions 1 to 3, read back through the
// attention reader; the header dict parsed strictly; pickles and other dtypes refused; truncated
// and oversized data refused before the values are allocated.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "heads_bytes.hpp"
#include "helpers.hpp"
#include <attnx/heads.hpp>
#include <attnx/npy_read.hpp>

namespace {

constexpr std::uint64_t kBudget = 1ull << 30;

// Row-stochastic values in C order for `shape`: entry (..., i, j) = (1 + (3i + 5j + 7h) % 11) / row sum,
// h the flat index of the leading axes.
std::vector<double> stochastic(const std::vector<int>& shape) {
  const int L = shape.back();
  std::size_t lead = 1;
  for (std::size_t k = 0; k + 2 < shape.size(); ++k) lead *= std::size_t(shape[k]);
  std::vector<double> v;
  for (std::size_t h = 0; h < lead; ++h)
    for (int i = 0; i < L; ++i) {
      double sum = 0;
      for (int j = 0; j < L; ++j) sum += 1 + (3 * i + 5 * j + 7 * int(h)) % 11;
      for (int j = 0; j < L; ++j) v.push_back((1 + (3 * i + 5 * j + 7 * int(h)) % 11) / sum);
    }
  return v;
}

std::string refusal(const std::string& bytes, std::uint64_t budget = kBudget) {
  try {
    attnx::read_attention(bytes, "x.npy", budget);
  } catch (const attnx::InvalidArgument& e) {
    CHECK(e.field() == "file");
    return e.what();
  }
  FAIL_CHECK("the file was accepted");
  return "";
}

}  // namespace

TEST_CASE("float32 and float64 .npy files of every rank and order read back in C order") {
  for (const std::vector<int>& shape : {std::vector<int>{5, 5}, {3, 4, 4}, {2, 3, 4, 4}})
    for (int size : {4, 8})
      for (bool fortran : {false, true})
        for (bool big : {false, true}) {
          CAPTURE(shape.size());
          CAPTURE(size);
          CAPTURE(fortran);
          CAPTURE(big);
          const std::vector<double> v = stochastic(shape);
          const attnx::AttentionArray a = attnx::read_attention(hb::npy_floats(v, shape, size, fortran, big), "x.npy", kBudget);
          CHECK(a.format == "npy");
          CHECK(a.dtype == std::string(big ? ">" : "<") + "f" + std::to_string(size));
          CHECK(a.rank == int(shape.size()));
          CHECK(a.L == shape.back());
          CHECK(a.heads == (shape.size() >= 3 ? shape[shape.size() - 3] : 1));
          CHECK(a.layers == (shape.size() == 4 ? shape[0] : 1));
          REQUIRE(a.values.size() == v.size());
          int wrong = 0;
          for (std::size_t n = 0; n < v.size(); ++n) wrong += a.values[n] != static_cast<float>(v[n]);
          CHECK(wrong == 0);
        }
}

TEST_CASE("float16 converts exactly, subnormals and infinities included") {
  // Half bits: 1, 0.5, 0.25, 2^-24 (smallest subnormal), -2, 65504 (largest), +inf, 2^-14.
  const std::vector<std::uint16_t> bits = {0x3C00, 0x3800, 0x3400, 0x0001, 0xC000, 0x7BFF, 0x7C00, 0x0400};
  const std::vector<float> want = {1.0f, 0.5f, 0.25f, 5.9604644775390625e-08f, -2.0f, 65504.0f,
                                   std::numeric_limits<float>::infinity(), 6.103515625e-05f};
  std::string data;
  for (std::uint16_t b : bits) hb::put_le(data, b, 2);
  for (bool fortran : {false, true}) {
    // A [2, 2, 2] array whose C order is `bits` (Fortran order writes element (a, b, c) at a + 2b + 4c).
    std::string file_data = data;
    if (fortran) {
      file_data.clear();
      for (int c = 0; c < 2; ++c)
        for (int b = 0; b < 2; ++b)
          for (int a = 0; a < 2; ++a) hb::put_le(file_data, bits[4 * a + 2 * b + c], 2);
    }
    const std::string f = hb::npy_file(hb::npy_dict("<f2", fortran, {2, 2, 2}), file_data);
    const attnx::NpyHeader h = attnx::parse_npy_header(f);
    CHECK(h.descr == "<f2");
    CHECK(h.item_size == 2);
    CHECK(h.fortran_order == fortran);
    CHECK(attnx::npy_float_values(f, h) == want);
  }
}

TEST_CASE("header versions 2.0 and 3.0, double quotes and no trailing comma are read") {
  const std::vector<double> v = stochastic({3, 3});
  std::string data;
  for (double x : v) data += hb::float_bytes(x, 4, false);
  for (int major : {2, 3}) {
    const attnx::AttentionArray a =
        attnx::read_attention(hb::npy_file(hb::npy_dict("<f4", false, {3, 3}), data, major), "x.npy", kBudget);
    CHECK(a.L == 3);
  }
  const std::string dq = "{\"descr\": \"<f4\", \"shape\": (3, 3), \"fortran_order\": False}";
  CHECK(attnx::parse_npy_header(hb::npy_file(dq, data)).shape == std::vector<std::uint64_t>{3, 3});
}

TEST_CASE("a header that is not exactly NumPy's dict is refused, naming the place") {
  const std::string data(36, '\0');
  auto header_refusal = [&](const std::string& dict) { return refusal(hb::npy_file(dict, data)); };
  CHECK(th::contains(header_refusal("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 3), 'x': 1}"),
                     "an unknown key \"x\""));
  CHECK(th::contains(header_refusal("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3, 3)}"),
                     "the key \"descr\" twice"));
  CHECK(th::contains(header_refusal("{'descr': '<f4', 'fortran_order': False}"), "no 'shape' key"));
  CHECK(th::contains(header_refusal("{'descr': '<f4', 'fortran_order': 0, 'shape': (3, 3)}"), "True or False"));
  CHECK(th::contains(header_refusal("{'descr': '<f4', 'fortran_order': False, 'shape': (9)}"),
                     "a 1-tuple without its comma"));
  CHECK(th::contains(header_refusal("{'descr': '<f4', 'fortran_order': False, 'shape': [3, 3]}"), "a list for 'shape'"));
  CHECK(th::contains(header_refusal("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 3)} x"),
                     "text after the dict"));
  CHECK(th::contains(header_refusal("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3,)}"),
                     "structured dtype"));
  CHECK(th::contains(refusal("\x93NUMPX" + std::string(100, ' ')), "bad magic"));
  // Leading zeros: Python (so NumPy's reader) refuses 08 and 008; 0 and 00 are zero (an empty axis).
  CHECK(th::contains(header_refusal("{'descr': '<f4', 'fortran_order': False, 'shape': (08, 008), }"),
                     "a dimension with a leading zero (08) in 'shape', which is not a Python integer (NumPy refuses it) "
                     "at character 52"));
  CHECK(th::contains(header_refusal("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 03), }"), "leading zero (03)"));
  CHECK(th::contains(header_refusal("{'descr': '<f4', 'fortran_order': False, 'shape': (00, 00), }"), "empty axis"));
  CHECK(th::contains(refusal(std::string("\x93NUMPY\x04\x00", 8) + std::string(100, ' ')), "version 4.0"));
  CHECK(th::contains(refusal(std::string("\x93NUMPY\x01\x00\xff", 9)), "truncated"));
  CHECK(th::contains(refusal(std::string("\x93NUMPY\x01\x00\xff\x00{'descr'", 17)), "header declares 255 bytes"));
}

TEST_CASE("pickles and other dtypes are refused and never unpickled") {
  // What np.save writes for np.array([{'a': 1}], dtype=object): a pickle after the header.
  const std::string pickle = hb::npy_file("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }",
                                          std::string("\x80\x03" "cnumpy.core.multiarray\n_reconstruct\n", 38));
  const std::string m = refusal(pickle);
  CHECK(th::contains(m, "x.npy: dtype \"|O\" holds Python objects (a pickle): refused, never unpickled"));
  CHECK(th::contains(refusal(std::string("\x80\x04\x95", 3) + "rest"), "a Python pickle"));
  CHECK(th::contains(refusal(hb::npy_file(hb::npy_dict("<i8", false, {2, 2}), std::string(32, '\0'))),
                     "wrong dtype int64 (\"<i8\"): expected float16, float32 or float64"));
  CHECK(th::contains(refusal(hb::npy_file(hb::npy_dict("|f4", false, {2, 2}), std::string(16, '\0'))),
                     "wrong dtype"));
  CHECK(th::contains(refusal(hb::npy_file(hb::npy_dict("<M8[ns]", false, {2, 2}), std::string(32, '\0'))),
                     "is not read"));
}

TEST_CASE("shapes outside [L, L], [H, L, L], [layers, H, L, L] are refused with the shape") {
  auto npy = [](const std::vector<int>& shape, std::size_t values) {
    return hb::npy_file(hb::npy_dict("<f4", false, shape), std::string(4 * values, '\0'));
  };
  CHECK(th::contains(refusal(npy({4}, 4)), "shape [4] (rank 1); expected [L, L], [H, L, L] or [layers, H, L, L]"));
  CHECK(th::contains(refusal(npy({2, 2, 2, 2, 2}, 32)), "rank 5"));
  CHECK(th::contains(refusal(npy({2, 4, 3}, 24)), "not square: shape [2, 4, 3]"));
  CHECK(th::contains(refusal(npy({1, 1}, 1)), "L = 1"));
  CHECK(th::contains(refusal(npy({0, 3, 3}, 0)), "empty axis"));
  CHECK(th::contains(refusal(npy({4097, 4097}, 0)), "L = 4097 (shape [4097, 4097]) is above the limit of 4096"));
}

TEST_CASE("truncated data and huge declared shapes are refused before the values are allocated") {
  const std::string t = refusal(hb::npy_file(hb::npy_dict("<f4", false, {2, 3, 3}), std::string(70, '\0')));
  CHECK(th::contains(t, "x.npy: the .npy data is truncated: the header declares (2, 3, 3) float32 (\"<f4\") = 72 bytes, 70 follow"));
  CHECK(th::contains(refusal(hb::npy_file(hb::npy_dict("<f4", false, {3, 3}), std::string(40, '\0'))),
                     "4 bytes after its data"));
  // Huge shapes: refused from the header alone (the files have no data).
  CHECK(th::contains(refusal(hb::npy_file(hb::npy_dict("<f4", false, {1000000000, 4096, 4096}), "")),
                     "the attention has 1000000000 heads (shape [1000000000, 4096, 4096]), more than 1048576"));
  CHECK(th::contains(refusal(hb::npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2147483648, "
                                          "2147483648, 2147483648)}", "")),
                     "too many elements"));
  CHECK(th::contains(refusal(hb::npy_file(hb::npy_dict("<f4", false, {4096, 4096}), "")), "truncated"));
  // Within the shape limits but above the memory budget: refused before reading the values.
  const std::string big = hb::npy_floats(stochastic({64, 64}), {64, 64}, 4, false);
  try {
    attnx::read_attention(big, "big.npy", 20000);
    FAIL_CHECK("accepted above the budget");
  } catch (const attnx::BudgetExceeded& e) {
    // A budget of no whole number of MiB: both sizes in bytes, in the order they are.
    CHECK(th::contains(e.what(), "big.npy: reading it needs about " +
                                     std::to_string(attnx::estimate_attention_bytes(big.size(), 64 * 64, 0)) +
                                     " bytes, above the memory budget of 20000 bytes"));
    CHECK(th::contains(e.what(), "raise the budget"));
  }
}

TEST_CASE("a file that is no attention format is named as such") {
  CHECK(th::contains(refusal(""), "x.npy: the file is empty"));
  CHECK(th::contains(refusal("hello"), "not an attention file"));
}
