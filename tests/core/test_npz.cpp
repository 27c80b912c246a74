// The .npz reader (issue 24): ZIP archives built here (stored entries, a hand-made deflate
// entry), attention.npy with tokens.npy, every refusal of the archive named, a deflate bomb
// capped by the size the archive declares, a CRC mismatch, and the memory budget checked
// against the declared sizes before anything is inflated. (Archives written by NumPy itself,
// deflated by zlib, are read in test_heads_python.cpp.)
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "heads_bytes.hpp"
#include "helpers.hpp"
#include <attnx/heads.hpp>
#include <attnx/zip_read.hpp>

namespace {

constexpr std::uint64_t kBudget = 1ull << 30;

// A 2 x 2 identity in float32 and its file.
std::string identity_npy() { return hb::npy_floats({1, 0, 0, 1}, {2, 2}, 4, false); }

// '<U2' tokens "a" and "é": UTF-32LE code units, NUL padded.
std::string tokens_npy() {
  std::string data;
  for (std::uint32_t u : {0x61u, 0u, 0xE9u, 0u}) hb::put_le(data, u, 4);
  return hb::npy_file(hb::npy_dict("<U2", false, {2}), data);
}

std::string refusal(const std::string& bytes, std::uint64_t budget = kBudget) {
  try {
    attnx::read_attention(bytes, "a.npz", budget);
  } catch (const attnx::InvalidArgument& e) {
    return e.what();
  }
  FAIL_CHECK("the archive was accepted");
  return "";
}

// A deflated entry holding `data` in one stored deflate block (method 8).
hb::ZipItem deflated(const std::string& name, const std::string& data) {
  std::string s = "\x01";
  hb::put_le(s, data.size(), 2);
  hb::put_le(s, ~data.size() & 0xFFFF, 2);
  return {name, s + data, 8, hb::crc32_bitwise(data), data.size(), 0};
}

}  // namespace

TEST_CASE("a stored .npz with attention.npy and tokens.npy reads values and UTF-8 tokens") {
  const std::string z = hb::zip_archive({hb::stored("tokens.npy", tokens_npy()), hb::stored("attention.npy", identity_npy())});
  const attnx::AttentionArray a = attnx::read_attention(z, "a.npz", kBudget);
  CHECK(a.format == "npz");
  CHECK(a.rank == 2);
  CHECK(a.values == std::vector<float>{1, 0, 0, 1});
  CHECK(a.tokens == std::vector<std::string>{"a", "\xC3\xA9"});
  const attnx::AttentionArray b = attnx::read_attention(hb::zip_archive({deflated("attention.npy", identity_npy())}), "b.npz", kBudget);
  CHECK(b.values == std::vector<float>{1, 0, 0, 1});
  CHECK(b.tokens.empty());
}

TEST_CASE("an archive without attention.npy lists what it holds — a PyTorch file is named") {
  const std::string m = refusal(hb::zip_archive({hb::stored("arr_0.npy", identity_npy())}));
  CHECK(th::contains(m, "a.npz: the .npz archive has no attention.npy (it holds arr_0.npy)"));
  CHECK(th::contains(m, "np.savez(\"a.npz\", attention=x, tokens=t)"));
  const std::string t = refusal(hb::zip_archive({hb::stored("archive/data.pkl", "\x80\x02}q"), hb::stored("archive/version", "3")}));
  CHECK(th::contains(t, "looks like a PyTorch file"));
  CHECK(th::contains(t, "never unpickled"));
}

TEST_CASE("damaged archives are refused, each with its reason") {
  const std::string z = hb::zip_archive({hb::stored("attention.npy", identity_npy())});
  CHECK(th::contains(refusal(z.substr(0, z.size() - 5)), "not a ZIP archive (no end of central directory record)"));
  std::string cut = z.substr(0, 60) + z.substr(z.size() - 22);  // the end record points past the data
  CHECK(th::contains(refusal(cut), "central directory"));
  hb::ZipItem bz = hb::stored("attention.npy", identity_npy());
  bz.method = 12;
  CHECK(th::contains(refusal(hb::zip_archive({bz})), "attention.npy uses compression method 12 (bzip2)"));
  hb::ZipItem enc = hb::stored("attention.npy", identity_npy());
  enc.flags = 1;
  CHECK(th::contains(refusal(hb::zip_archive({enc})), "entry attention.npy is encrypted"));
  CHECK(th::contains(refusal(hb::zip_archive({hb::stored("attention.npy", identity_npy()), hb::stored("attention.npy", identity_npy())})),
                     "holds attention.npy twice"));
  hb::ZipItem crc = hb::stored("attention.npy", identity_npy());
  crc.crc ^= 1;
  CHECK(th::contains(refusal(hb::zip_archive({crc})), "attention.npy: CRC-32 mismatch"));
  hb::ZipItem inner = hb::stored("attention.npy", identity_npy().substr(0, identity_npy().size() - 4));
  CHECK(th::contains(refusal(hb::zip_archive({inner})), "attention.npy: its header declares 16 bytes of data"));
}

TEST_CASE("a deflate bomb is refused at the size the archive declares") {
  // attention.npy: a valid header for [2, 2] float32 and 16 bytes of data, then 1 MB more of
  // zeros, deflated (fixed codes: the header bytes as literals, then copies at distance 1); the
  // archive declares the true size of the .npy (the header plus 16 bytes).
  const std::string npy = identity_npy();
  hb::BitWriter w;
  w.bits(1, 1), w.bits(1, 2);
  for (unsigned char c : npy) w.fixed_symbol(c);
  for (int n = 0; n < 4000; ++n) w.fixed_symbol(285), w.code(0, 5);
  w.fixed_symbol(256);
  hb::ZipItem bomb{"attention.npy", w.str(), 8, hb::crc32_bitwise(npy), npy.size(), 0};
  const std::string m = refusal(hb::zip_archive({bomb}));
  CHECK(th::contains(m, "a.npz: attention.npy: the deflate data inflates to more than " +
                            std::to_string(npy.size()) + " bytes (the size the archive declares)"));
}

TEST_CASE("declared sizes are checked against the memory budget before inflating") {
  // attention.npy declares [16, 4096, 4096] float32 (1 GiB) and the archive agrees, but the
  // deflate data holds only the header, in a block that is not the last: inflating it would
  // fail. The budget refuses it first, from the header and the declared size alone.
  const std::string header = hb::npy_file(hb::npy_dict("<f4", false, {16, 4096, 4096}), "");
  std::string s(1, '\0');  // a stored block, not the last
  hb::put_le(s, header.size(), 2);
  hb::put_le(s, ~header.size() & 0xFFFF, 2);
  const std::uint64_t size = header.size() + 4ull * 16 * 4096 * 4096;
  hb::ZipItem huge{"attention.npy", s + header, 8, 0, size, 0};
  try {
    attnx::read_attention(hb::zip_archive({huge}), "a.npz", 1ull << 30);
    FAIL_CHECK("accepted above the budget");
  } catch (const attnx::BudgetExceeded& e) {
    CHECK(th::contains(e.what(), "a.npz: reading it needs about 2049 MiB"));
  }
  // A small archive under a small budget: the same check, passing and failing.
  const std::string npy = hb::npy_floats(std::vector<double>(64 * 64, 1.0 / 64), {64, 64}, 4, false);
  const std::string z = hb::zip_archive({deflated("attention.npy", npy)});
  CHECK_THROWS_AS(attnx::read_attention(z, "a.npz", 30000), attnx::BudgetExceeded);
  CHECK(attnx::read_attention(z, "a.npz", 1 << 20).L == 64);
}

TEST_CASE("tokens must be L unicode strings") {
  const std::string bytes_tokens = hb::npy_file(hb::npy_dict("|S1", false, {2}), "ab");
  CHECK(th::contains(refusal(hb::zip_archive({hb::stored("attention.npy", identity_npy()), hb::stored("tokens.npy", bytes_tokens)})),
                     "tokens.npy: wrong dtype (\"|S1\") for strings: expected unicode"));
  std::string bad_cp;
  hb::put_le(bad_cp, 0xD800, 4);
  hb::put_le(bad_cp, 0x61, 4);
  const std::string surrogate = hb::npy_file(hb::npy_dict("<U1", false, {2}), bad_cp);
  CHECK(th::contains(refusal(hb::zip_archive({hb::stored("attention.npy", identity_npy()), hb::stored("tokens.npy", surrogate)})),
                     "string 0 holds an invalid code point (55296)"));
  std::string three_units;
  for (int n = 0; n < 3; ++n) hb::put_le(three_units, 0x62, 4);
  const std::string three_tokens = hb::npy_file(hb::npy_dict("<U1", false, {3}), three_units);
  CHECK(th::contains(refusal(hb::zip_archive({hb::stored("attention.npy", identity_npy()), hb::stored("tokens.npy", three_tokens)})),
                     "tokens.npy: holds 3 strings, but L is 2"));
}

namespace {

// attention.npy of a [2, 3, 3] head pair deflated with fixed codes (literals only).
hb::ZipItem fixed_deflated(const std::string& name, const std::string& data) {
  hb::BitWriter w;
  w.bits(1, 1), w.bits(1, 2);
  for (unsigned char c : data) w.fixed_symbol(c);
  w.fixed_symbol(256);
  return {name, w.str(), 8, hb::crc32_bitwise(data), data.size(), 0};
}

// Reads bytes; true when accepted, false when refused with InvalidArgument or BudgetExceeded
// (anything else escapes and fails the test).
bool accepted(const std::string& bytes) {
  try {
    attnx::read_attention(bytes, "f", 1 << 20);
    return true;
  } catch (const attnx::InvalidArgument&) {
  } catch (const attnx::BudgetExceeded&) {
  }
  return false;
}

}  // namespace

TEST_CASE("every truncation and every corrupted byte of a file is read or refused, never more") {
  std::vector<double> v;
  for (int n = 0; n < 18; ++n) v.push_back(1.0 / 3);
  const std::string npy = hb::npy_floats(v, {2, 3, 3}, 4, false);
  std::string units;
  for (std::uint32_t u : {0x61u, 0x62u, 0x63u}) hb::put_le(units, u, 4);
  const std::string tokens = hb::npy_file(hb::npy_dict("<U1", false, {3}), units);
  const std::vector<std::string> files = {
      npy, hb::zip_archive({fixed_deflated("attention.npy", npy), hb::stored("tokens.npy", tokens)}),
      "{\"tokens\": [\"a\", \"b\"], \"attention\": [[[1, 0], [0.5, 0.5]]]}"};
  for (const std::string& f : files) {
    REQUIRE(accepted(f));
    int read = 0;
    for (std::size_t n = 0; n < f.size(); ++n) read += accepted(f.substr(0, n));
    CHECK(read == 0);  // no prefix of these files is itself a valid file
    for (std::size_t n = 0; n < f.size(); ++n) {
      std::string g = f;
      g[n] = static_cast<char>(g[n] ^ 0x55);
      accepted(g);  // any outcome but a crash or another exception
    }
  }
}
