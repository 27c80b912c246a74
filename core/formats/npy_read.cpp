// attnx core: the .npy reader (see npy_read.hpp). The header dict is read by a small parser of
// the Python literals NumPy writes (strings, True/False, tuples of integers); nothing is evaluated.
#include <attnx/npy_read.hpp>

#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>

#include <attnx/errors.hpp>
#include <attnx/json.hpp>

namespace attnx {

namespace {

[[noreturn]] void bad(const std::string& what) { fail("file", what); }

const char kPickleHint[] =
    "save the attention as a float array, e.g. np.save(\"a.npy\", x.float().cpu().numpy())";

// A cursor over the header dict; every refusal names the character where it happened.
class DictParser {
 public:
  explicit DictParser(std::string_view s) : s_(s) {}

  NpyHeader parse() {
    NpyHeader h;
    bool seen[3] = {false, false, false};
    ws();
    expect('{', "'{' (the header must be a dict)");
    for (ws(); !eat('}'); ws()) {
      const std::size_t key_at = p_;
      const std::string key = string_literal();
      const int k = key == "descr" ? 0 : key == "fortran_order" ? 1 : key == "shape" ? 2 : -1;
      if (k < 0) error_at(key_at, "an unknown key " + json_escape(key) + " (allowed: descr, fortran_order, shape)");
      if (seen[k]) error_at(key_at, "the key " + json_escape(key) + " twice");
      seen[k] = true;
      ws();
      expect(':', "':'");
      ws();
      if (k == 0) descr(h);
      else if (k == 1) h.fortran_order = boolean();
      else h.shape = tuple();
      ws();
      if (eat('}')) break;
      expect(',', "',' or '}'");
    }
    for (int k = 0; k < 3; ++k)
      if (!seen[k])
        error_at(p_, std::string("no '") + (k == 0 ? "descr" : k == 1 ? "fortran_order" : "shape") + "' key");
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\n' || s_[p_] == '\r' || s_[p_] == '\t')) ++p_;
    if (p_ != s_.size()) error_at(p_, "text after the dict");
    return h;
  }

 private:
  [[noreturn]] void error_at(std::size_t at, const std::string& what) const {
    bad("the .npy header is not valid: " + what + " at character " + std::to_string(at + 1) + " of " +
        json_escape(std::string(s_.substr(0, 80))) + (s_.size() > 80 ? "..." : ""));
  }
  void ws() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t')) ++p_;
  }
  bool eat(char c) {
    if (p_ < s_.size() && s_[p_] == c) return ++p_, true;
    return false;
  }
  void expect(char c, const char* what) {
    if (!eat(c)) error_at(p_, std::string("expected ") + what);
  }
  std::string string_literal() {
    if (p_ >= s_.size() || (s_[p_] != '\'' && s_[p_] != '"')) error_at(p_, "expected a quoted string");
    const char q = s_[p_++];
    const std::size_t start = p_;
    while (p_ < s_.size() && s_[p_] != q) {
      const unsigned char c = static_cast<unsigned char>(s_[p_]);
      if (c == '\\' || c < 0x20 || c >= 0x7F) error_at(p_, "an escape or a non-ASCII character in a string");
      ++p_;
    }
    if (p_ >= s_.size()) error_at(start - 1, "an unterminated string");
    return std::string(s_.substr(start, p_++ - start));
  }
  bool boolean() {
    if (s_.substr(p_, 4) == "True") return p_ += 4, true;
    if (s_.substr(p_, 5) == "False") return p_ += 5, false;
    error_at(p_, "expected True or False for 'fortran_order'");
  }
  std::uint64_t integer() {
    const std::size_t start = p_;
    while (p_ < s_.size() && s_[p_] >= '0' && s_[p_] <= '9') ++p_;
    if (p_ == start) error_at(start, "expected a non-negative integer in 'shape'");
    if (p_ - start > 18) error_at(start, "a dimension with more than 18 digits in 'shape'");
    // Python's integer literals (which NumPy's reader evaluates) have no leading zeros: 08 and
    // 007 are refused there, 0 and 00 are zero.
    const std::string_view digits = s_.substr(start, p_ - start);
    if (digits[0] == '0' && digits.find_first_not_of('0') != std::string_view::npos)
      error_at(start, "a dimension with a leading zero (" + std::string(digits) +
                          ") in 'shape', which is not a Python integer (NumPy refuses it)");
    return std::stoull(std::string(s_.substr(start, p_ - start)));
  }
  std::vector<std::uint64_t> tuple() {
    if (p_ < s_.size() && s_[p_] == '[') error_at(p_, "a list for 'shape' (NumPy writes a tuple)");
    expect('(', "a tuple for 'shape'");
    std::vector<std::uint64_t> v;
    bool comma = false;
    for (ws(); !eat(')'); ws()) {
      v.push_back(integer());
      ws();
      comma = eat(',');
      ws();
      if (!comma && !eat(')')) error_at(p_, "expected ',' or ')' in 'shape'");
      if (!comma) break;
    }
    if (v.size() == 1 && !comma) error_at(p_ - 1, "a 1-tuple without its comma in 'shape' (NumPy writes (n,))");
    return v;
  }
  void descr(NpyHeader& h) {
    if (p_ < s_.size() && s_[p_] == '[')
      bad("the .npy file holds a structured dtype (a list of fields), not an array of numbers; " +
          std::string(kPickleHint));
    h.descr = string_literal();
    const std::string& d = h.descr;
    const bool order = !d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=');
    const std::string type = order ? d.substr(1) : d;
    if (!type.empty() && type[0] == 'O')
      bad("dtype " + json_escape(d) + " holds Python objects (a pickle): refused, never unpickled; " + kPickleHint);
    bool digits = type.size() >= 2 && type.size() <= 11;
    for (std::size_t q = 1; digits && q < type.size(); ++q) digits = type[q] >= '0' && type[q] <= '9';
    if (!order || !digits || !std::isalpha(static_cast<unsigned char>(type[0])))
      bad("dtype " + json_escape(d) + " is not read: expected float16, float32 or float64 ('<f2', '<f4', '<f8')");
    h.byte_order = d[0];
    h.kind = d[1];
    const std::uint64_t n = std::stoull(d.substr(2));
    h.item_size = h.kind == 'U' ? 4 * n : n;
  }

  std::string_view s_;
  std::size_t p_ = 0;
};

std::uint64_t read_le(std::string_view b, std::size_t at, int n) {
  std::uint64_t v = 0;
  for (int k = n - 1; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(b[at + k]);
  return v;
}

// The element at `at` of `size` bytes in byte order `order`, as an unsigned integer.
std::uint64_t read_uint(const unsigned char* p, int size, char order) {
  std::uint64_t v = 0;
  for (int k = 0; k < size; ++k) v = (v << 8) | p[order == '>' ? k : size - 1 - k];
  return v;
}

float half_to_float(std::uint64_t h) {
  const int exp = int((h >> 10) & 0x1F);
  const float mant = float(h & 0x3FF);
  float v;
  if (exp == 0) v = std::ldexp(mant, -24);
  else if (exp == 31) v = mant != 0 ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  else v = std::ldexp(mant + 1024.0f, exp - 25);
  return (h & 0x8000) ? -v : v;
}

float element_float(const unsigned char* p, const NpyHeader& h) {
  const std::uint64_t u = read_uint(p, int(h.item_size), h.byte_order);
  if (h.item_size == 2) return half_to_float(u);
  if (h.item_size == 4) {
    const std::uint32_t w = static_cast<std::uint32_t>(u);
    float f;
    std::memcpy(&f, &w, 4);
    return f;
  }
  double d;
  std::memcpy(&d, &u, 8);
  return static_cast<float>(d);
}

// C-order position of each element read in Fortran order (first index fastest).
void fortran_to_c(const std::vector<float>& f, const std::vector<std::uint64_t>& shape, std::vector<float>& c) {
  const std::size_t r = shape.size();
  std::vector<std::uint64_t> stride(r, 1), idx(r, 0);
  for (std::size_t k = r; k-- > 1;) stride[k - 1] = stride[k] * shape[k];
  std::uint64_t pos = 0;
  for (std::size_t n = 0; n < f.size(); ++n) {
    c[pos] = f[n];
    for (std::size_t k = 0; k < r; ++k) {
      if (++idx[k] < shape[k]) {
        pos += stride[k];
        break;
      }
      pos -= (shape[k] - 1) * stride[k];
      idx[k] = 0;
    }
  }
}

}  // namespace

NpyHeader parse_npy_header(std::string_view b) {
  if (b.size() < 6 || b.substr(0, 6) != std::string_view("\x93NUMPY", 6))
    bad("not a .npy file (bad magic: it does not start with \\x93NUMPY)");
  if (b.size() < 10) bad("the .npy file is truncated (it ends inside its version and header length)");
  const int major = static_cast<unsigned char>(b[6]), minor = static_cast<unsigned char>(b[7]);
  if (major < 1 || major > 3 || minor != 0)
    bad("the .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
        " is not read (1.0, 2.0 and 3.0 are)");
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  if (b.size() < 8 + len_bytes) bad("the .npy file is truncated (it ends inside its header length)");
  const std::uint64_t len = read_le(b, 8, int(len_bytes));
  if (len > kMaxNpyHeaderBytes)
    bad("the .npy header declares " + std::to_string(len) + " bytes, more than the " +
        std::to_string(kMaxNpyHeaderBytes) + " read");
  const std::size_t start = 8 + len_bytes;
  if (b.size() - start < len)
    bad("the .npy file is truncated (its header declares " + std::to_string(len) + " bytes, " +
        std::to_string(b.size() - start) + " follow)");
  NpyHeader h = DictParser(b.substr(start, static_cast<std::size_t>(len))).parse();
  h.major = major;
  h.data_offset = start + static_cast<std::size_t>(len);
  h.count = 1;
  for (std::uint64_t dim : h.shape) {
    if (dim != 0 && h.count > (std::uint64_t(1) << 62) / dim)
      bad("the .npy header declares shape " + npy_shape_text(h.shape) + ": too many elements");
    h.count *= dim;
  }
  if (h.item_size != 0 && h.count > (std::uint64_t(1) << 62) / h.item_size)
    bad("the .npy header declares shape " + npy_shape_text(h.shape) + ": too many bytes");
  return h;
}

std::string npy_shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) s += (k ? ", " : "") + std::to_string(shape[k]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::string npy_dtype_text(const NpyHeader& h) {
  std::string name;
  if (h.kind == 'f' && (h.item_size == 2 || h.item_size == 4 || h.item_size == 8))
    name = "float" + std::to_string(8 * h.item_size) + " ";
  else if ((h.kind == 'i' || h.kind == 'u') && h.item_size <= 8)
    name = std::string(h.kind == 'u' ? "uint" : "int") + std::to_string(8 * h.item_size) + " ";
  else if (h.kind == 'U')
    name = "unicode ";
  return name + "(" + json_escape(h.descr) + ")";
}

void check_npy_data_size(const NpyHeader& h, std::uint64_t available) {
  const std::uint64_t need = h.count * h.item_size;
  const std::string declared = "the header declares " + npy_shape_text(h.shape) + " " + npy_dtype_text(h) +
                               " = " + std::to_string(need) + " bytes";
  if (available < need)
    bad("the .npy data is truncated: " + declared + ", " + std::to_string(available) + " follow");
  if (available > need)
    bad("the .npy file has " + std::to_string(available - need) + " bytes after its data (" + declared + ")");
}

std::vector<float> npy_float_values(std::string_view b, const NpyHeader& h) {
  const bool ok = h.kind == 'f' && (h.item_size == 2 || h.item_size == 4 || h.item_size == 8) &&
                  (h.byte_order == '<' || h.byte_order == '>');
  if (!ok)
    bad("wrong dtype " + npy_dtype_text(h) +
        ": expected float16, float32 or float64 ('<f2', '<f4', '<f8'); cast with .astype(np.float32) "
        "(bfloat16 tensors: .float() first)");
  check_npy_data_size(h, b.size() - h.data_offset);
  const auto* p = reinterpret_cast<const unsigned char*>(b.data()) + h.data_offset;
  std::vector<float> v(static_cast<std::size_t>(h.count));
  for (std::size_t n = 0; n < v.size(); ++n) v[n] = element_float(p + n * h.item_size, h);
  if (!h.fortran_order || h.shape.size() < 2) return v;
  std::vector<float> c(v.size());
  fortran_to_c(v, h.shape, c);
  return c;
}

std::vector<std::string> npy_unicode_strings(std::string_view b, const NpyHeader& h) {
  if (h.kind != 'U' || (h.byte_order != '<' && h.byte_order != '>'))
    bad("wrong dtype " + npy_dtype_text(h) + " for strings: expected unicode ('<U n'), e.g. np.array(tokens)");
  if (h.shape.size() != 1) bad("expected a 1-D array of strings (got shape " + npy_shape_text(h.shape) + ")");
  check_npy_data_size(h, b.size() - h.data_offset);
  const auto* p = reinterpret_cast<const unsigned char*>(b.data()) + h.data_offset;
  const std::size_t chars = static_cast<std::size_t>(h.item_size / 4);
  std::vector<std::string> out(static_cast<std::size_t>(h.count));
  for (std::size_t n = 0; n < out.size(); ++n) {
    std::size_t len = chars;
    auto unit = [&](std::size_t c) { return std::uint32_t(read_uint(p + 4 * (n * chars + c), 4, h.byte_order)); };
    while (len > 0 && unit(len - 1) == 0) --len;
    for (std::size_t c = 0; c < len; ++c) {
      const std::uint32_t cp = unit(c);
      if (cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000))
        bad("string " + std::to_string(n) + " holds an invalid code point (" + std::to_string(cp) + ")");
      append_utf8(out[n], cp);
    }
  }
  return out;
}

}  // namespace attnx
