// attnx core: reading NumPy's .npy format (numpy.lib.format, versions 1.0, 2.0 and 3.0) from
// bytes in memory: the header dict, parsed strictly, then float arrays (float16, float32,
// float64, either byte order, C or Fortran order) and unicode string arrays. Object arrays are
// pickles: they are refused and never unpickled. No I/O.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attnx {

// Longest header dict read (numpy writes about 128 bytes; its own reader stops at 10000).
constexpr std::size_t kMaxNpyHeaderBytes = 65535;

struct NpyHeader {
  int major = 1;                     // format version 1, 2 or 3 (minor is always 0)
  std::string descr;                 // dtype as written, e.g. "<f4"
  char byte_order = '<';             // '<' little, '>' big, '|' not applicable
  char kind = 'f';                   // NumPy's type character: 'f' float, 'U' unicode, ...
  std::uint64_t item_size = 0;       // bytes per element ('U': 4 per character)
  bool fortran_order = false;
  std::vector<std::uint64_t> shape;
  std::uint64_t count = 1;           // product of shape (checked against overflow)
  std::size_t data_offset = 0;       // bytes before the data: magic, version, length, dict
};

// Parses the magic "\x93NUMPY", the version (1.0, 2.0, 3.0), the header length and the dict,
// which must be a Python dict literal with exactly the keys 'descr' (a string),
// 'fortran_order' (True or False) and 'shape' (a tuple of integers; a 1-tuple written "(n,)"),
// followed only by spaces and a newline. Needs only the header's bytes, not the data.
// Refusals are InvalidArgument("file", ...): "not a .npy file (bad magic ...)", "the .npy file is
// truncated ...", "the .npy header ...: <what> at character N", "dtype '|O' holds Python
// objects (a pickle): refused, never unpickled; ...", "a structured dtype ...".
// Cost: O(header length).
NpyHeader parse_npy_header(std::string_view bytes);

// Refuses data of another size than count * item_size bytes: "the .npy data is truncated: the
// header declares (4, 64, 64) float32 = 65536 bytes, the file holds 1000" or "... N bytes after
// the data". `available`: bytes after data_offset.
void check_npy_data_size(const NpyHeader& h, std::uint64_t available);

// Describes a dtype for messages: "<f4" -> "float32 ('<f4')".
std::string npy_dtype_text(const NpyHeader& h);
// "(4, 64, 64)"
std::string npy_shape_text(const std::vector<std::uint64_t>& shape);

// The elements of a float array (kind 'f', 2, 4 or 8 bytes, byte order '<' or '>') as float, in C
// (row-major) order: a Fortran-order array is transposed. float16 converts exactly; float64 is
// rounded to the nearest float (outside float's range: +-infinity). Refuses any other dtype
// ("wrong dtype int64 ('<i8'): expected float16, float32 or float64 ..."). Checks the data size
// first. Cost: O(count); allocates count floats.
std::vector<float> npy_float_values(std::string_view bytes, const NpyHeader& h);

// The elements of a 1-D unicode array ('<U n' or '>U n') as UTF-8 strings, NumPy's trailing NUL
// padding removed. Refuses other dtypes or ranks and code points that are not Unicode scalar
// values (above U+10FFFF or surrogates), naming the element. Cost: O(data).
std::vector<std::string> npy_unicode_strings(std::string_view bytes, const NpyHeader& h);

}  // namespace attnx
