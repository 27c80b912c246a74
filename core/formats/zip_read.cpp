// attnx core: ZIP archives in memory (see zip_read.hpp). Every offset and size read from the
// archive is checked against its length before use; nothing is allocated from a declared size.
#include <attnx/zip_read.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <set>

#include <attnx/errors.hpp>
#include <attnx/inflate.hpp>

namespace attnx {

namespace {

constexpr std::uint32_t kEndSig = 0x06054b50, kCentralSig = 0x02014b50, kLocalSig = 0x04034b50;
constexpr std::uint32_t kEnd64Sig = 0x06064b50, kLocator64Sig = 0x07064b50;
constexpr std::uint64_t kMax32 = 0xFFFFFFFFu;

[[noreturn]] void bad(const std::string& what) { fail("file", what); }

// Little-endian fields of the archive, refused as truncated when they lie outside it.
class Bytes {
 public:
  explicit Bytes(std::string_view s) : s_(s) {}
  std::uint64_t size() const { return s_.size(); }
  void need(std::uint64_t at, std::uint64_t n, const char* what) const {
    if (at > s_.size() || n > s_.size() - at)
      bad(std::string("the ZIP archive is truncated (") + what + " runs past its end)");
  }
  std::uint64_t le(std::uint64_t at, int n, const char* what) const {
    need(at, std::uint64_t(n), what);
    std::uint64_t v = 0;
    for (int b = n - 1; b >= 0; --b) v = (v << 8) | static_cast<unsigned char>(s_[at + b]);
    return v;
  }
  std::string_view view(std::uint64_t at, std::uint64_t n, const char* what) const {
    need(at, n, what);
    return s_.substr(static_cast<std::size_t>(at), static_cast<std::size_t>(n));
  }

 private:
  std::string_view s_;
};

// Where the central directory is and how many entries it holds.
struct Directory {
  std::uint64_t offset = 0, size = 0, count = 0, end = 0;  // end: where the end records start
};

// Where a directory field lies in its end record: the offset from the record's start, and its
// length in bytes.
struct FieldAt {
  std::uint64_t offset;
  int bytes;
};

// The entry count, size and offset of the central directory, read from the end record at `at`
// whose fields lie as `count`, `size` and `offset` say (in that order); end = at. `what` names the
// record in a truncation message.
Directory directory_at(const Bytes& b, std::uint64_t at, FieldAt count, FieldAt size, FieldAt offset,
                       const char* what) {
  Directory d;
  d.count = b.le(at + count.offset, count.bytes, what);
  d.size = b.le(at + size.offset, size.bytes, what);
  d.offset = b.le(at + offset.offset, offset.bytes, what);
  d.end = at;
  return d;
}

// The ZIP64 end record that the locator before the end record at `at` points to.
Directory zip64_directory(const Bytes& b, std::uint64_t at) {
  if (at < 20 || b.le(at - 20, 4, "the ZIP64 locator") != kLocator64Sig)
    bad("the ZIP archive's end record asks for ZIP64 but has no ZIP64 locator");
  const std::uint64_t rec = b.le(at - 12, 8, "the ZIP64 locator");
  if (b.le(at - 16, 4, "the ZIP64 locator") != 0 || b.le(at - 4, 4, "the ZIP64 locator") > 1)
    bad("multi-disk ZIP archives are not read");
  if (rec > at - 20 || b.le(rec, 4, "the ZIP64 end record") != kEnd64Sig)
    bad("the ZIP64 locator does not point to a ZIP64 end record");
  if (b.le(rec + 16, 4, "the ZIP64 end record") != 0 || b.le(rec + 20, 4, "the ZIP64 end record") != 0 ||
      b.le(rec + 24, 8, "the ZIP64 end record") != b.le(rec + 32, 8, "the ZIP64 end record"))
    bad("multi-disk ZIP archives are not read");
  return directory_at(b, rec, {32, 8}, {40, 8}, {48, 8}, "the ZIP64 end record");
}

// The end of central directory record: the last one whose comment reaches the archive's end.
Directory find_directory(const Bytes& b) {
  const std::uint64_t n = b.size();
  if (n < 22) bad("not a ZIP archive (shorter than an end of central directory record)");
  const std::uint64_t lowest = n - 22 > 65535 ? n - 22 - 65535 : 0;
  for (std::uint64_t at = n - 22 + 1; at-- > lowest;) {
    if (b.le(at, 4, "") != kEndSig || at + 22 + b.le(at + 20, 2, "") != n) continue;
    if (b.le(at + 4, 2, "") != 0 || b.le(at + 6, 2, "") != 0 || b.le(at + 8, 2, "") != b.le(at + 10, 2, ""))
      bad("multi-disk ZIP archives are not read");
    Directory d = directory_at(b, at, {10, 2}, {12, 4}, {16, 4}, "");
    if (d.count == 0xFFFF || d.size == kMax32 || d.offset == kMax32) d = zip64_directory(b, at);
    if (d.offset > d.end || d.size > d.end - d.offset)
      bad("the ZIP archive's central directory lies outside it (truncated?)");
    if (d.count > d.size / 46) bad("the ZIP archive's central directory is too small for its entry count");
    return d;
  }
  bad("not a ZIP archive (no end of central directory record)");
}

// The ZIP64 extra field (id 1) of a central header: the 8-byte values of the fields that are
// 0xFFFFFFFF, in the order usize, csize, offset.
void read_zip64_extra(const Bytes& b, std::uint64_t at, std::uint64_t len, ZipEntry& e,
                      std::uint64_t& offset) {
  for (std::uint64_t p = at; p + 4 <= at + len;) {
    const std::uint64_t id = b.le(p, 2, "an extra field"), n = b.le(p + 2, 2, "an extra field");
    if (p + 4 + n > at + len) bad("entry " + e.name + " has a malformed extra field");
    if (id == 1) {
      std::uint64_t q = p + 4;
      for (std::uint64_t* f : {&e.size, &e.compressed_size, &offset}) {
        if (*f != kMax32) continue;
        if (q + 8 > p + 4 + n) bad("entry " + e.name + " has a short ZIP64 extra field");
        *f = b.le(q, 8, "a ZIP64 extra field");
        q += 8;
      }
    }
    p += 4 + n;
  }
}

// Checks the local header at `offset` against central entry e and sets e.data_offset.
void read_local_header(const Bytes& b, std::uint64_t offset, const Directory& d, ZipEntry& e) {
  if (offset >= d.offset || b.le(offset, 4, "a local header") != kLocalSig)
    bad("entry " + e.name + ": no local header where the central directory points");
  const std::uint64_t n = b.le(offset + 26, 2, "a local header"), m = b.le(offset + 28, 2, "a local header");
  if (b.view(offset + 30, n, "a local header's name") != e.name)
    bad("entry " + e.name + ": its local header names another file");
  if (b.le(offset + 8, 2, "a local header") != std::uint64_t(e.method))
    bad("entry " + e.name + ": its local header gives another compression method");
  e.data_offset = offset + 30 + n + m;
  if (e.data_offset > d.offset || e.compressed_size > d.offset - e.data_offset)
    bad("entry " + e.name + ": its data runs past the start of the central directory (truncated?)");
}

// The central header at `at`; returns the offset of the next one.
std::uint64_t read_central(const Bytes& b, std::uint64_t at, const Directory& d, ZipEntry& e) {
  if (b.le(at, 4, "the central directory") != kCentralSig)
    bad("the ZIP archive's central directory is damaged (no header where one should start)");
  const std::uint64_t flags = b.le(at + 8, 2, "a central header");
  const std::uint64_t n = b.le(at + 28, 2, "a central header"), m = b.le(at + 30, 2, "a central header");
  const std::uint64_t k = b.le(at + 32, 2, "a central header");
  e.name = std::string(b.view(at + 46, n, "a central header's name"));
  e.method = static_cast<int>(b.le(at + 10, 2, "a central header"));
  e.crc = static_cast<std::uint32_t>(b.le(at + 16, 4, "a central header"));
  e.compressed_size = b.le(at + 20, 4, "a central header");
  e.size = b.le(at + 24, 4, "a central header");
  std::uint64_t offset = b.le(at + 42, 4, "a central header");
  if (b.le(at + 34, 2, "a central header") != 0 && b.le(at + 34, 2, "") != 0xFFFF)
    bad("multi-disk ZIP archives are not read");
  read_zip64_extra(b, at + 46 + n, m, e, offset);
  if (flags & 0x41) bad("entry " + e.name + " is encrypted");
  read_local_header(b, offset, d, e);
  const std::uint64_t next = at + 46 + n + m + k;
  if (next > d.offset + d.size) bad("the ZIP archive's central directory is damaged (an entry runs past it)");
  return next;
}

const char* method_name(int m) {
  switch (m) {
    case 12: return " (bzip2)";
    case 14: return " (LZMA)";
    case 93: return " (Zstandard)";
    case 95: return " (XZ)";
    case 9: return " (deflate64)";
    default: return "";
  }
}

// Refuses a compression method other than stored (0) and deflate (8), naming it.
void require_method(const ZipEntry& e) {
  if (e.method == 0 || e.method == 8) return;
  bad(e.name + " uses compression method " + std::to_string(e.method) + method_name(e.method) +
      "; only stored (0, np.savez) and deflate (8, np.savez_compressed) are read");
}

std::string hex32(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

}  // namespace

std::vector<ZipEntry> zip_entries(std::string_view archive) {
  const Bytes b(archive);
  const Directory d = find_directory(b);
  std::vector<ZipEntry> out;
  std::set<std::string> names;
  std::uint64_t at = d.offset;
  for (std::uint64_t n = 0; n < d.count; ++n) {
    ZipEntry e;
    at = read_central(b, at, d, e);
    if (!names.insert(e.name).second) bad("the ZIP archive holds " + e.name + " twice");
    out.push_back(std::move(e));
  }
  return out;
}

std::string zip_entry_prefix(std::string_view archive, const ZipEntry& e, std::size_t prefix) {
  const Bytes b(archive);
  const std::string_view raw = b.view(e.data_offset, e.compressed_size, "an entry's data");
  const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(prefix, e.size));
  if (e.method == 0) return std::string(raw.substr(0, std::min(want, raw.size())));
  require_method(e);
  try {
    return inflate_raw(raw, want, InflateLimit::Stop);
  } catch (const InvalidArgument& x) {
    fail("file", e.name + ": " + x.what());
  }
}

std::string_view zip_entry_data(std::string_view archive, const ZipEntry& e, std::string& buffer) {
  const Bytes b(archive);
  const std::string_view raw = b.view(e.data_offset, e.compressed_size, "an entry's data");
  require_method(e);
  std::string_view data;
  if (e.method == 0) {
    if (e.compressed_size != e.size)
      bad(e.name + ": a stored entry whose sizes differ (" + std::to_string(e.compressed_size) + " and " +
          std::to_string(e.size) + " bytes)");
    data = raw;
  } else {
    if (e.size > std::numeric_limits<std::size_t>::max() / 2)
      bad(e.name + ": declares " + std::to_string(e.size) + " bytes, more than this build can hold");
    try {
      buffer = inflate_raw(raw, static_cast<std::size_t>(e.size), InflateLimit::Refuse);
    } catch (const InvalidArgument& x) {
      bad(e.name + ": " + x.what() + (std::string(x.what()).find("inflates to more") != std::string::npos
                                          ? " (the size the archive declares)" : ""));
    }
    if (buffer.size() != e.size)
      bad(e.name + ": inflates to " + std::to_string(buffer.size()) + " bytes, but the archive declares " +
          std::to_string(e.size));
    data = buffer;
  }
  const std::uint32_t crc = crc32(data);
  if (crc != e.crc)
    bad(e.name + ": CRC-32 mismatch (the data gives " + hex32(crc) + ", the archive declares " + hex32(e.crc) +
        "): the archive is damaged");
  return data;
}

}  // namespace attnx
