// attnx core: reading a ZIP archive held in memory (PKWARE APPNOTE 6.3), as np.savez (stored)
// and np.savez_compressed (deflate) write them: the central directory, each entry's local
// header, ZIP64 sizes and end records. Bytes in, entries out; no I/O.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attnx {

struct ZipEntry {
  std::string name;
  int method = 0;                    // 0 stored, 8 deflate (others are refused when read)
  std::uint32_t crc = 0;             // CRC-32 of the uncompressed data, as the archive declares
  std::uint64_t compressed_size = 0;
  std::uint64_t size = 0;            // uncompressed size, as the archive declares
  std::uint64_t data_offset = 0;     // where the entry's (compressed) data starts in the archive
};

// Every entry of the archive, in central-directory order, after checking the end record, the
// central directory and every local header against the bytes (all offsets and sizes inside the
// archive, local and central names equal, no name twice, single disk, no encryption).
// Refusals are InvalidArgument("file", ...): "not a ZIP archive (no end of central directory)",
// "the ZIP archive is truncated (...)", "entry NAME is encrypted", ... Cost: O(archive's
// directory); the entries' data is not read.
std::vector<ZipEntry> zip_entries(std::string_view archive);

// The first `prefix` bytes of entry e's uncompressed data (all of it when shorter), without
// checking its CRC: used to read a header before the memory for the whole entry is granted.
std::string zip_entry_prefix(std::string_view archive, const ZipEntry& e, std::size_t prefix);

// Entry e's data, uncompressed: a view into `archive` for a stored entry; a deflated entry is
// inflated (inflate.hpp) into `buffer`, with the output capped at the declared size (a stream
// that inflates further is refused: a deflate bomb), and the view points there. The size must
// equal the declared one and the CRC-32 must match. Methods other than 0 and 8 are refused
// naming the method. Messages start with the entry's name ("attention.npy: CRC-32 mismatch
// ..."). The caller checks e.size against its memory budget first. Cost: O(e.compressed_size +
// e.size).
std::string_view zip_entry_data(std::string_view archive, const ZipEntry& e, std::string& buffer);

}  // namespace attnx
