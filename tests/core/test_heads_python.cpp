// The attention readers against NumPy and zlib (issue 24), when Debian's python3 with numpy is
// installed (scripts/setup installs python3-scipy, which brings numpy): np.save, np.savez and
// np.savez_compressed files of random attention and tokens are read back value for value, and
// raw DEFLATE streams of zlib (levels 0 to 9, random, repetitive and text-like data) inflate to
// the bytes python compressed. Python is only the reference here; the product never needs it.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <string>

#include "cli_run.hpp"
#include "helpers.hpp"
#include <attnx/heads.hpp>
#include <attnx/inflate.hpp>

namespace {

const char kPython[] = "/usr/bin/python3";

bool python_with_numpy() {
  struct stat st;
  if (::stat(kPython, &st) != 0) {
    MESSAGE("no " << kPython << "; skipping the NumPy and zlib cross-checks");
    return false;
  }
  const auto r = cli_test::run_program(kPython, {"-c", "import numpy, zlib"});
  if (r.status != 0) MESSAGE("python3 has no numpy; skipping the NumPy and zlib cross-checks");
  return r.status == 0;
}

std::uint32_t le32(const std::string& s, std::size_t at) {
  std::uint32_t v = 0;
  for (int k = 3; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(s[at + k]);
  return v;
}

}  // namespace

TEST_CASE("zlib's raw deflate streams inflate to the bytes python compressed") {
  if (!python_with_numpy()) return;
  cli_test::TempDir dir;
  // Records: [4-byte length][raw][4-byte length][deflated], for several data kinds and levels.
  const std::string script =
      "import random, struct, sys, zlib\n"
      "r = random.Random(24); out = open(sys.argv[1], 'wb')\n"
      "def rec(raw, level, strategy=zlib.Z_DEFAULT_STRATEGY):\n"
      "    c = zlib.compressobj(level, zlib.DEFLATED, -15, 9, strategy)\n"
      "    z = c.compress(raw) + c.flush()\n"
      "    out.write(struct.pack('<I', len(raw)) + raw + struct.pack('<I', len(z)) + z)\n"
      "words = [b'attention', b'head', b'sink', b'token', b'the', b'of', b' ', b'\\n']\n"
      "for n in range(60):\n"
      "    size = r.choice([0, 1, 7, 100, 1000, 40000, 200000])\n"
      "    kind = n % 4\n"
      "    if kind == 0: raw = bytes(r.getrandbits(8) for _ in range(size))\n"
      "    elif kind == 1: raw = bytes(r.choice(b'ab') for _ in range(size))\n"
      "    elif kind == 2: raw = b''.join(r.choice(words) for _ in range(size // 4))\n"
      "    else: raw = bytes(size)\n"
      "    rec(raw, n % 10)\n"
      "rec(b'abc' * 5000, 6, zlib.Z_FIXED)\n"
      "rec(b''.join(r.choice(words) for _ in range(9000)), 9, zlib.Z_HUFFMAN_ONLY)\n";
  const std::string path = dir.file("streams.bin");
  REQUIRE(cli_test::run_program(kPython, {"-c", script, path}).status == 0);
  const std::string all = cli_test::slurp(path);
  int records = 0, wrong = 0;
  for (std::size_t at = 0; at < all.size(); ++records) {
    const std::uint32_t n = le32(all, at);
    const std::string raw = all.substr(at + 4, n);
    const std::uint32_t m = le32(all, at + 4 + n);
    const std::string z = all.substr(at + 8 + n, m);
    at += 8 + n + m;
    wrong += attnx::inflate_raw(z, raw.size()) != raw;
    if (!raw.empty()) CHECK_THROWS_AS(attnx::inflate_raw(z, raw.size() - 1), attnx::InvalidArgument);
  }
  CHECK(records == 62);
  CHECK(wrong == 0);
}

TEST_CASE("NumPy's .npy and .npz files (stored and compressed) read back value for value") {
  if (!python_with_numpy()) return;
  cli_test::TempDir dir;
  // Random probabilities [2, 3, 24, 24]; each file's values are also written raw as float32 in C
  // order (a.tofile) for comparison.
  const std::string script =
      "import numpy as np, sys\n"
      "d = sys.argv[1]; r = np.random.default_rng(24)\n"
      "s = r.normal(size=(2, 3, 24, 24)); p = np.exp(s); p /= p.sum(-1, keepdims=True)\n"
      "t = np.array(['tok%d\\u00e9' % i for i in range(24)])\n"
      "for name, a in [('f4', p.astype('<f4')), ('f8', p), ('f2', p.astype('<f2')), ('be', p.astype('>f4'))]:\n"
      "    np.save(d + '/' + name + '.npy', a)\n"
      "    np.save(d + '/' + name + '_F.npy', np.asfortranarray(a))\n"
      "    a.astype('<f4').tofile(d + '/' + name + '.raw')\n"
      "np.savez(d + '/stored.npz', attention=p[0].astype('<f4'), tokens=t)\n"
      "np.savez_compressed(d + '/compressed.npz', attention=p[1].astype('<f4'), tokens=t)\n"
      "p[0].astype('<f4').tofile(d + '/l0.raw'); p[1].astype('<f4').tofile(d + '/l1.raw')\n";
  REQUIRE(cli_test::run_program(kPython, {"-c", script, dir.path()}).status == 0);
  auto values_of = [&](const std::string& raw) {
    const std::string b = cli_test::slurp(dir.file(raw));
    std::vector<float> v(b.size() / 4);
    std::memcpy(v.data(), b.data(), b.size());
    return v;
  };
  for (const char* name : {"f4", "f8", "f2", "be"})
    for (const char* order : {"", "_F"}) {
      const std::string file = std::string(name) + order + ".npy";
      CAPTURE(file);
      const attnx::AttentionArray a = attnx::read_attention(cli_test::slurp(dir.file(file)), file, 1ull << 30);
      CHECK(a.rank == 4);
      CHECK(a.layers == 2);
      CHECK(a.heads == 3);
      CHECK(a.values == values_of(std::string(name) + ".raw"));
    }
  for (const char* name : {"stored", "compressed"}) {
    const std::string file = std::string(name) + ".npz";
    const attnx::AttentionArray a = attnx::read_attention(cli_test::slurp(dir.file(file)), file, 1ull << 30);
    CHECK(a.format == "npz");
    CHECK(a.rank == 3);
    CHECK(a.values == values_of(std::string(name) == "stored" ? "l0.raw" : "l1.raw"));
    REQUIRE(a.tokens.size() == 24);
    CHECK(a.tokens[5] == "tok5\xC3\xA9");
  }
  // A flipped byte in the compressed archive's data: a deflate error or a CRC mismatch, named.
  std::string z = cli_test::slurp(dir.file("compressed.npz"));
  z[z.size() / 3] = static_cast<char>(z[z.size() / 3] ^ 0x10);
  const auto e = th::invalid([&] { attnx::read_attention(z, "c.npz", 1ull << 30); });
  CHECK(std::string(e.what()).rfind("c.npz: ", 0) == 0);
}
