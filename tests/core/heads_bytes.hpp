// Byte builders for the tests of the attention-file readers (issue 24), written independently of
// the code under test: .npy files, ZIP archives (stored entries, any method and flags), a
// bit writer for hand-made DEFLATE streams and a bitwise CRC-32 (no table).
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace hb {

// CRC-32 bit by bit (polynomial 0xEDB88320, reflected).
inline std::uint32_t crc32_bitwise(const std::string& s) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : s) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

inline void put_le(std::string& s, std::uint64_t v, int n) {
  for (int k = 0; k < n; ++k) s += char((v >> (8 * k)) & 0xFF);
}

// A .npy file: magic, version (major.0), header length, `dict` padded with spaces to a multiple
// of 64 and a newline, then `data`.
inline std::string npy_file(const std::string& dict, const std::string& data, int major = 1) {
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  std::string header = dict;
  while ((6 + 2 + len_bytes + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string s = std::string("\x93NUMPY", 6);
  s += char(major);
  s += char(0);
  put_le(s, header.size(), int(len_bytes));
  return s + header + data;
}

inline std::string shape_text(const std::vector<int>& shape) {
  std::string s = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) s += (k ? ", " : "") + std::to_string(shape[k]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

inline std::string npy_dict(const std::string& descr, bool fortran, const std::vector<int>& shape) {
  return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
         ", 'shape': " + shape_text(shape) + ", }";
}

// Element bytes of a value in a float dtype ('<' or '>' and 4 or 8 bytes).
inline std::string float_bytes(double v, int size, bool big) {
  std::string b(static_cast<std::size_t>(size), '\0');
  if (size == 4) {
    const float f = static_cast<float>(v);
    std::memcpy(&b[0], &f, 4);
  } else {
    std::memcpy(&b[0], &v, 8);
  }
  if (big) b = std::string(b.rbegin(), b.rend());
  return b;
}

// A float .npy of `values` given in C order for `shape`, written in C or Fortran order.
inline std::string npy_floats(const std::vector<double>& values, const std::vector<int>& shape, int size,
                              bool fortran, bool big = false) {
  std::vector<std::size_t> stride(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;) stride[k - 1] = stride[k] * std::size_t(shape[k]);
  std::string data;
  std::vector<int> idx(shape.size(), 0);
  for (std::size_t n = 0; n < values.size(); ++n) {
    std::size_t c = 0;  // the C position of the n-th element in the file's order
    for (std::size_t k = 0; k < shape.size(); ++k) c += std::size_t(idx[k]) * stride[k];
    data += float_bytes(values[c], size, big);
    if (fortran) {
      for (std::size_t k = 0; k < shape.size() && ++idx[k] == shape[k]; ++k) idx[k] = 0;
    } else {
      for (std::size_t k = shape.size(); k-- > 0 && ++idx[k] == shape[k];) idx[k] = 0;
    }
  }
  return npy_file(npy_dict(std::string(big ? ">" : "<") + "f" + std::to_string(size), fortran, shape), data);
}

struct ZipItem {
  std::string name, data;       // data as stored in the archive (compressed for method 8)
  int method = 0;
  std::uint32_t crc = 0;        // of the uncompressed data
  std::uint64_t size = 0;       // uncompressed size
  int flags = 0;
};

// A stored entry with its CRC computed here.
inline ZipItem stored(const std::string& name, const std::string& data) {
  return {name, data, 0, crc32_bitwise(data), data.size(), 0};
}

// A ZIP archive: local headers and data, central directory, end record (no ZIP64).
inline std::string zip_archive(const std::vector<ZipItem>& items) {
  std::string out, central;
  for (const ZipItem& it : items) {
    const std::size_t offset = out.size();
    put_le(out, 0x04034b50, 4);
    put_le(out, 20, 2);
    put_le(out, it.flags, 2);
    put_le(out, it.method, 2);
    put_le(out, 0, 4);  // time, date
    put_le(out, it.crc, 4);
    put_le(out, it.data.size(), 4);
    put_le(out, it.size, 4);
    put_le(out, it.name.size(), 2);
    put_le(out, 0, 2);
    out += it.name + it.data;
    put_le(central, 0x02014b50, 4);
    put_le(central, 20, 2);
    put_le(central, 20, 2);
    put_le(central, it.flags, 2);
    put_le(central, it.method, 2);
    put_le(central, 0, 4);
    put_le(central, it.crc, 4);
    put_le(central, it.data.size(), 4);
    put_le(central, it.size, 4);
    put_le(central, it.name.size(), 2);
    put_le(central, 0, 2);  // extra
    put_le(central, 0, 2);  // comment
    put_le(central, 0, 2);  // disk
    put_le(central, 0, 2);  // internal attributes
    put_le(central, 0, 4);  // external attributes
    put_le(central, offset, 4);
    central += it.name;
  }
  const std::size_t cd = out.size();
  out += central;
  put_le(out, 0x06054b50, 4);
  put_le(out, 0, 4);
  put_le(out, items.size(), 2);
  put_le(out, items.size(), 2);
  put_le(out, central.size(), 4);
  put_le(out, cd, 4);
  put_le(out, 0, 2);
  return out;
}

// Bits of a DEFLATE stream, least significant first; Huffman codes are given most significant
// bit first, as RFC 1951 writes them.
class BitWriter {
 public:
  void bits(std::uint32_t v, int n) {
    for (int k = 0; k < n; ++k) bit((v >> k) & 1u);
  }
  void code(std::uint32_t c, int len) {
    for (int k = len - 1; k >= 0; --k) bit((c >> k) & 1u);
  }
  // Fixed-code literal or length symbol (RFC 1951 §3.2.6).
  void fixed_symbol(int sym) {
    if (sym < 144) code(0x30 + sym, 8);
    else if (sym < 256) code(0x190 + sym - 144, 9);
    else if (sym < 280) code(sym - 256, 7);
    else code(0xC0 + sym - 280, 8);
  }
  void align() {
    while (n_ % 8) bit(0);
  }
  void byte(unsigned char b) { bits(b, 8); }
  std::string str() const { return s_; }

 private:
  void bit(unsigned b) {
    if (n_ % 8 == 0) s_ += '\0';
    s_.back() = char(static_cast<unsigned char>(s_.back()) | (b << (n_ % 8)));
    ++n_;
  }
  std::string s_;
  std::size_t n_ = 0;
};

}  // namespace hb
