// The core's raw DEFLATE decoder and CRC-32 (issue 24): hand-made stored, fixed-Huffman and
// dynamic-Huffman blocks with their expected bytes worked out by hand, every refusal, the
// output cap (a deflate bomb), and CRC-32 against its check value and a bitwise twin.
#include <doctest/doctest.h>

#include <string>

#include "heads_bytes.hpp"
#include "helpers.hpp"
#include <attnx/inflate.hpp>

using attnx::inflate_raw;
using attnx::InflateLimit;

namespace {

std::string refusal(const std::string& in, std::size_t max_out = 1 << 20) {
  try {
    inflate_raw(in, max_out);
  } catch (const attnx::InvalidArgument& e) {
    CHECK(e.field() == "file");
    return e.what();
  }
  FAIL_CHECK("inflate_raw accepted a bad stream");
  return "";
}

// A final stored block holding `data`.
std::string stored_block(const std::string& data, bool last = true) {
  hb::BitWriter w;
  w.bits(last ? 1 : 0, 1);
  w.bits(0, 2);
  w.align();
  std::string s = w.str();
  hb::put_le(s, data.size(), 2);
  hb::put_le(s, ~data.size() & 0xFFFF, 2);
  return s + data;
}

// One fixed-Huffman block: 'a', 'b', 'c', then a match of length 6 at distance 3, then end.
std::string fixed_abc() {
  hb::BitWriter w;
  w.bits(1, 1);  // last block
  w.bits(1, 2);  // fixed codes
  for (char c : std::string("abc")) w.fixed_symbol(c);
  w.fixed_symbol(260);  // length 6 (no extra bits)
  w.code(2, 5);         // distance 3 (code 2, no extra bits)
  w.fixed_symbol(256);
  return w.str();
}

// A bomb: one zero byte, then `matches` copies of 258 bytes at distance 1: 1 + 258 * matches bytes.
std::string zeros_bomb(int matches) {
  hb::BitWriter w;
  w.bits(1, 1);
  w.bits(1, 2);
  w.fixed_symbol(0);
  for (int n = 0; n < matches; ++n) {
    w.fixed_symbol(285);  // length 258
    w.code(0, 5);         // distance 1
  }
  w.fixed_symbol(256);
  return w.str();
}

// The header of a dynamic block whose code-length code has `lengths` for the first symbols of the
// order 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15.
void dynamic_header(hb::BitWriter& w, int hlit, int hdist, const std::vector<int>& lengths) {
  w.bits(1, 1);
  w.bits(2, 2);
  w.bits(hlit, 5);
  w.bits(hdist, 5);
  w.bits(static_cast<std::uint32_t>(lengths.size() - 4), 4);
  for (int l : lengths) w.bits(l, 3);
}

}  // namespace

TEST_CASE("a stored block is copied byte for byte") {
  CHECK(inflate_raw(stored_block("hello"), 100) == "hello");
  CHECK(inflate_raw(stored_block(""), 100) == "");
  CHECK(inflate_raw(stored_block("ab", false) + stored_block("cd"), 100) == "abcd");
}

TEST_CASE("a fixed-Huffman block with a back reference decodes to the bytes worked out by hand") {
  CHECK(inflate_raw(fixed_abc(), 100) == "abcabcabc");
}

TEST_CASE("a dynamic-Huffman block built by hand decodes") {
  hb::BitWriter w;
  // Code-length code: symbols 18 (index 2 of the order) and 1 (index 17) of length 1: 1 -> '0',
  // 18 -> '1'. Literal/length lengths: 'a' (97) and end of block (256) of length 1, so 'a' ->
  // '0', 256 -> '1'; one distance code of length 1.
  std::vector<int> cl(18, 0);
  cl[2] = 1, cl[17] = 1;
  dynamic_header(w, 0, 0, cl);  // 257 literal/length codes, 1 distance code
  w.code(1, 1), w.bits(97 - 11, 7);   // 97 zeros
  w.code(0, 1);                        // 'a': 1
  w.code(1, 1), w.bits(127, 7);        // 138 zeros
  w.code(1, 1), w.bits(9, 7);          // 20 zeros (98..255)
  w.code(0, 1);                        // 256: 1
  w.code(0, 1);                        // distance 0: 1
  w.code(0, 1), w.code(0, 1), w.code(0, 1), w.code(1, 1);  // "aaa", end
  CHECK(inflate_raw(w.str(), 100) == "aaa");
}

TEST_CASE("malformed deflate streams are refused, each with its reason") {
  CHECK(th::contains(refusal(""), "truncated"));
  hb::BitWriter t3;
  t3.bits(1, 1), t3.bits(3, 2);
  CHECK(th::contains(refusal(t3.str()), "invalid block type (3)"));
  std::string bad_len = stored_block("hello");
  bad_len[3] = 0;  // NLEN no longer the complement of LEN
  CHECK(th::contains(refusal(bad_len), "length check fails"));
  CHECK(th::contains(refusal(stored_block("hello").substr(0, 7)), "truncated"));
  hb::BitWriter far;
  far.bits(1, 1), far.bits(1, 2);
  far.fixed_symbol('a');
  far.fixed_symbol(257);  // length 3
  far.code(3, 5);         // distance 4, but 1 byte written
  far.fixed_symbol(256);
  CHECK(th::contains(refusal(far.str()), "distance too far back (4 bytes, 1 written)"));
  CHECK(th::contains(refusal(stored_block("hi") + "x"), "1 bytes after the end of the deflate stream"));
  hb::BitWriter over;
  dynamic_header(over, 0, 0, {1, 1, 1, 1});  // four codes of length 1: over-subscribed
  CHECK(th::contains(refusal(over.str()), "over-subscribed code-length code"));
  hb::BitWriter no_end;
  dynamic_header(no_end, 0, 0, {0, 0, 1, 1});  // symbols 18 ('1') and 0 ('0')
  no_end.code(1, 1), no_end.bits(127, 7);  // 138 zeros
  no_end.code(1, 1), no_end.bits(109, 7);  // 120 zeros: all 258 lengths are 0
  CHECK(th::contains(refusal(no_end.str()), "without an end-of-block code"));
}

TEST_CASE("a deflate bomb is refused at the cap, or cut there on request") {
  const std::string bomb = zeros_bomb(4000);  // 1,032,001 bytes from about 6 KB
  CHECK(bomb.size() < 7000);
  CHECK(inflate_raw(bomb, 1032001).size() == 1032001);
  CHECK(th::contains(refusal(bomb, 1000), "inflates to more than 1000 bytes"));
  const std::string head = inflate_raw(bomb, 1000, InflateLimit::Stop);
  CHECK(head == std::string(1000, '\0'));
  CHECK(inflate_raw(fixed_abc(), 4, InflateLimit::Stop) == "abca");
  // A prefix of a stream that ends early is what it holds (the full read refuses it).
  CHECK(inflate_raw(stored_block("hello").substr(0, 7), 100, InflateLimit::Stop) == "he");
  CHECK(th::contains(refusal(stored_block("hello"), 4), "inflates to more than 4 bytes"));
  CHECK(th::contains(refusal(fixed_abc(), 2), "inflates to more than 2 bytes"));  // at a literal
}

TEST_CASE("CRC-32 gives the check value, continues, and equals a bitwise computation") {
  CHECK(attnx::crc32("123456789") == 0xCBF43926u);
  CHECK(attnx::crc32("") == 0u);
  CHECK(attnx::crc32("6789", attnx::crc32("12345")) == 0xCBF43926u);
  attnx::Rng rng(7);
  for (int n = 0; n < 50; ++n) {
    std::string s(static_cast<std::size_t>(rng.next() % 300), '\0');
    for (char& c : s) c = static_cast<char>(rng.next() & 0xFF);
    CHECK(attnx::crc32(s) == hb::crc32_bitwise(s));
  }
}
