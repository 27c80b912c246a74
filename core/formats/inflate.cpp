// attnx core: raw DEFLATE decoding and CRC-32 (see inflate.hpp). The decoder follows zlib's
// contrib/puff/puff.c (Mark Adler): canonical Huffman codes held as counts per length and
// symbols in code order, decoded bit by bit; a 9-bit lookup table answers the short codes first.
#include <attnx/inflate.hpp>

#include <array>

#include <attnx/errors.hpp>

namespace attnx {

namespace {

constexpr int kMaxBits = 15;    // longest code of RFC 1951
constexpr int kFastBits = 9;    // codes this short are answered by one table lookup
constexpr int kMaxLCodes = 286, kMaxDCodes = 30, kFixLCodes = 288;
constexpr std::size_t kMaxReserve = std::size_t(64) << 20;

[[noreturn]] void bad(const std::string& what) { fail("file", "invalid deflate data: " + what); }

// The input ended before the stream did: an error, or the end of a prefix (InflateLimit::Stop).
struct Truncated {
  const char* what;
};

// Reads the stream's bits least significant first, buffering up to 64 of them.
class BitReader {
 public:
  explicit BitReader(std::string_view in)
      : p_(reinterpret_cast<const unsigned char*>(in.data())), n_(in.size()) {}
  void refill() {
    while (cnt_ <= 56 && pos_ < n_) {
      buf_ |= std::uint64_t(p_[pos_++]) << cnt_;
      cnt_ += 8;
    }
  }
  unsigned bits(int need) {  // 0 <= need <= 32
    if (cnt_ < need) {
      refill();
      if (cnt_ < need) throw Truncated{"truncated (the stream ends inside a block)"};
    }
    const unsigned v = unsigned(buf_ & ((std::uint64_t(1) << need) - 1));
    drop(need);
    return v;
  }
  std::uint64_t peek() const { return buf_; }
  int available() const { return cnt_; }
  void drop(int n) { buf_ >>= n, cnt_ -= n; }
  void align() { drop(cnt_ & 7); }
  // Appends `len` bytes of a byte-aligned stored block to out (buffered bytes first).
  void copy_bytes(std::size_t len, std::string& out) {
    for (; len > 0 && cnt_ >= 8; --len) out.push_back(char(bits(8)));
    if (len > n_ - pos_) {
      out.append(reinterpret_cast<const char*>(p_ + pos_), n_ - pos_);
      pos_ = n_;
      throw Truncated{"truncated (a stored block is longer than the data left)"};
    }
    out.append(reinterpret_cast<const char*>(p_ + pos_), len);
    pos_ += len;
  }
  // Bytes of input used so far (a partly used last byte counts as used).
  std::size_t consumed() const { return pos_ - std::size_t(cnt_ / 8); }

 private:
  const unsigned char* p_;
  std::size_t n_, pos_ = 0;
  std::uint64_t buf_ = 0;
  int cnt_ = 0;
};

struct StopSignal {};  // InflateLimit::Stop reached: the output is complete

// The decoded bytes, never more than max.
class Output {
 public:
  Output(std::size_t max, InflateLimit limit) : max_(max), limit_(limit) {
    s_.reserve(std::min(max, kMaxReserve));
  }
  void put(char c) {
    if (s_.size() == max_) overflow();
    s_.push_back(c);
  }
  // The `len` bytes that start `dist` bytes back (they may overlap what is being written).
  void copy(std::size_t dist, std::size_t len) {
    if (dist > s_.size())
      bad("a distance too far back (" + std::to_string(dist) + " bytes, " + std::to_string(s_.size()) +
          " written)");
    const std::size_t take = std::min(len, max_ - s_.size());
    const std::size_t from = s_.size() - dist;
    for (std::size_t n = 0; n < take; ++n) {
      const char c = s_[from + n];
      s_.push_back(c);
    }
    if (take < len) overflow();
  }
  void stored(BitReader& br, std::size_t len) {
    const std::size_t take = std::min(len, max_ - s_.size());
    if (take < len && limit_ == InflateLimit::Refuse) overflow();
    br.copy_bytes(take, s_);
    if (take < len) overflow();
  }
  std::string take() { return std::move(s_); }

 private:
  [[noreturn]] void overflow() {
    if (limit_ == InflateLimit::Stop) throw StopSignal{};
    fail("file", "the deflate data inflates to more than " + std::to_string(max_) + " bytes");
  }
  std::string s_;
  std::size_t max_;
  InflateLimit limit_;
};

// A canonical Huffman code: how many codes of each length, the symbols in code order, and a
// table of the codes of at most kFastBits bits indexed by the next kFastBits input bits
// ((symbol << 4) | length; 0 = longer code or none).
struct Huffman {
  std::array<short, kMaxBits + 1> count{};
  std::array<short, kFixLCodes> symbol{};
  std::array<std::uint16_t, 1 << kFastBits> fast{};
};

unsigned reversed(unsigned code, int len) {
  unsigned r = 0;
  for (int b = 0; b < len; ++b) r |= ((code >> b) & 1u) << (len - 1 - b);
  return r;
}

void fill_fast(Huffman& h) {
  unsigned code = 0;
  int index = 0;
  for (int len = 1; len <= kMaxBits; ++len) {
    for (int c = 0; c < h.count[len]; ++c, ++code, ++index) {
      if (len > kFastBits) continue;
      const auto entry = std::uint16_t((h.symbol[index] << 4) | len);
      for (unsigned r = reversed(code, len); r < (1u << kFastBits); r += 1u << len) h.fast[r] = entry;
    }
    code <<= 1;
  }
}

// Builds h from the code lengths of n symbols. Returns 0 for a complete code, > 0 for an
// incomplete one (codes left unused), < 0 for an over-subscribed one (not usable).
int build(Huffman& h, const short* length, int n) {
  h = Huffman{};
  for (int s = 0; s < n; ++s) ++h.count[length[s]];
  if (h.count[0] == n) return 0;  // no codes: decoding with it fails
  int left = 1;
  for (int len = 1; len <= kMaxBits; ++len) {
    left = (left << 1) - h.count[len];
    if (left < 0) return left;
  }
  std::array<short, kMaxBits + 1> offs{};
  for (int len = 1; len < kMaxBits; ++len) offs[len + 1] = short(offs[len] + h.count[len]);
  for (int s = 0; s < n; ++s)
    if (length[s] != 0) h.symbol[offs[length[s]]++] = short(s);
  fill_fast(h);
  return left;
}

int decode(BitReader& br, const Huffman& h) {
  br.refill();
  if (br.available() >= kFastBits) {
    const unsigned e = h.fast[br.peek() & ((1u << kFastBits) - 1)];
    if (e != 0) {
      br.drop(int(e & 15));
      return int(e >> 4);
    }
  }
  int code = 0, first = 0, index = 0;
  for (int len = 1; len <= kMaxBits; ++len) {
    code |= int(br.bits(1));
    const int count = h.count[len];
    if (code - count < first) return h.symbol[index + (code - first)];
    index += count;
    first = (first + count) << 1;
    code <<= 1;
  }
  bad("an invalid Huffman code");
}

// The literal/length and distance symbols of one block, until its end-of-block code.
void codes(BitReader& br, Output& out, const Huffman& lencode, const Huffman& distcode) {
  static constexpr short kLenBase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
  static constexpr short kLenExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                          2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
  static constexpr int kDistBase[30] = {1,   2,   3,   4,   5,   7,    9,    13,   17,   25,
                                        33,  49,  65,  97,  129, 193,  257,  385,  513,  769,
                                        1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
  static constexpr short kDistExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                           6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
  for (;;) {
    int sym = decode(br, lencode);
    if (sym < 256) {
      out.put(char(sym));
      continue;
    }
    if (sym == 256) return;
    sym -= 257;
    if (sym >= 29) bad("an invalid length symbol (" + std::to_string(sym + 257) + ")");
    const std::size_t len = std::size_t(kLenBase[sym]) + br.bits(kLenExtra[sym]);
    const int dsym = decode(br, distcode);
    if (dsym >= 30) bad("an invalid distance symbol (" + std::to_string(dsym) + ")");
    out.copy(std::size_t(kDistBase[dsym]) + br.bits(kDistExtra[dsym]), len);
  }
}

void stored(BitReader& br, Output& out) {
  br.align();
  const unsigned len = br.bits(16), nlen = br.bits(16);
  if (len != (~nlen & 0xFFFFu)) bad("a stored block's length check fails");
  out.stored(br, len);
}

// The fixed codes of RFC 1951 §3.2.6, built once.
struct FixedCodes {
  Huffman len, dist;
  FixedCodes() {
    std::array<short, kFixLCodes> l{};
    for (int s = 0; s < kFixLCodes; ++s) l[s] = short(s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8);
    build(len, l.data(), kFixLCodes);
    std::array<short, kMaxDCodes> d{};
    d.fill(5);
    build(dist, d.data(), kMaxDCodes);
  }
};

// Reads the code lengths of a dynamic block (RFC 1951 §3.2.7) into lengths[0, nlen + ndist).
void code_lengths(BitReader& br, short* lengths, int nlen, int ndist) {
  static constexpr short kOrder[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
  const int ncode = int(br.bits(4)) + 4;
  std::array<short, 19> cl{};
  for (int n = 0; n < ncode; ++n) cl[kOrder[n]] = short(br.bits(3));
  Huffman lencode;
  if (build(lencode, cl.data(), 19) != 0) bad("an incomplete or over-subscribed code-length code");
  for (int index = 0; index < nlen + ndist;) {
    const int sym = decode(br, lencode);
    if (sym < 16) {
      lengths[index++] = short(sym);
      continue;
    }
    short len = 0;
    int rep = 0;
    if (sym == 16) {
      if (index == 0) bad("a repeated length with no length before it");
      len = lengths[index - 1];
      rep = 3 + int(br.bits(2));
    } else {
      rep = sym == 17 ? 3 + int(br.bits(3)) : 11 + int(br.bits(7));
    }
    if (index + rep > nlen + ndist) bad("more code lengths than codes");
    while (rep-- > 0) lengths[index++] = len;
  }
}

void dynamic(BitReader& br, Output& out) {
  const int nlen = int(br.bits(5)) + 257, ndist = int(br.bits(5)) + 1;
  if (nlen > kMaxLCodes || ndist > kMaxDCodes) bad("too many length or distance codes");
  std::array<short, kMaxLCodes + kMaxDCodes> lengths{};
  code_lengths(br, lengths.data(), nlen, ndist);
  if (lengths[256] == 0) bad("a block without an end-of-block code");
  Huffman lencode, distcode;
  // An incomplete code is allowed only when it has a single code (RFC 1951, as puff reads it).
  int err = build(lencode, lengths.data(), nlen);
  if (err < 0 || (err > 0 && nlen - lencode.count[0] != 1))
    bad("an incomplete or over-subscribed literal/length code");
  err = build(distcode, lengths.data() + nlen, ndist);
  if (err < 0 || (err > 0 && ndist - distcode.count[0] != 1))
    bad("an incomplete or over-subscribed distance code");
  codes(br, out, lencode, distcode);
}

}  // namespace

std::string inflate_raw(std::string_view in, std::size_t max_out, InflateLimit limit) {
  static const FixedCodes fixed;
  BitReader br(in);
  Output out(max_out, limit);
  try {
    for (bool last = false; !last;) {
      last = br.bits(1) != 0;
      const unsigned type = br.bits(2);
      if (type == 0) stored(br, out);
      else if (type == 1) codes(br, out, fixed.len, fixed.dist);
      else if (type == 2) dynamic(br, out);
      else bad("an invalid block type (3)");
    }
  } catch (const StopSignal&) {
    return out.take();
  } catch (const Truncated& t) {
    if (limit == InflateLimit::Refuse) bad(t.what);
    return out.take();  // a prefix: what the input holds
  }
  if (limit == InflateLimit::Refuse && br.consumed() != in.size())
    bad(std::to_string(in.size() - br.consumed()) + " bytes after the end of the deflate stream");
  return out.take();
}

std::uint32_t crc32(std::string_view data, std::uint32_t crc) {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  crc = ~crc;
  for (const char ch : data) crc = table[(crc ^ static_cast<unsigned char>(ch)) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

}  // namespace attnx
