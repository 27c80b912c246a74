// attnx core: a small, strict raw DEFLATE decoder (RFC 1951: stored, fixed-Huffman and
// dynamic-Huffman blocks, after zlib's contrib/puff) and CRC-32 (ISO 3309, as ZIP uses it).
// One implementation for the CLI and the WebAssembly module: .npz archives written by
// np.savez_compressed are read with it, so the page needs no DecompressionStream. Bytes in,
// bytes out; no I/O, no allocation beyond the output (capped by the caller).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace attnx {

// What to do when the output would grow past max_out.
enum class InflateLimit {
  Refuse,  // a stream that inflates to more than max_out bytes is refused (a deflate bomb)
  Stop,    // stop there and return the first max_out bytes (reading a header of a large entry);
           // a stream that ends early gives what it decoded up to there (the full read refuses it)
};

// Decodes the raw DEFLATE stream `in` (no zlib or gzip wrapper). Returns the decoded bytes,
// at most max_out of them; reserves min(max_out, 64 MiB) up front, grows only as output is made.
// With InflateLimit::Refuse the whole stream must be valid and end exactly at the end of `in`
// (its last byte may hold padding bits). Refusals are InvalidArgument("file", ...) naming the
// problem: "the deflate data is truncated", "an invalid block type (3)", "a stored block's
// length check fails", "an incomplete/over-subscribed Huffman code", "an invalid code",
// "a distance too far back (d bytes, n written)", "inflates to more than N bytes" (Refuse),
// "N bytes after the end of the deflate stream". Cost: O(|in| + output), one pass.
std::string inflate_raw(std::string_view in, std::size_t max_out,
                        InflateLimit limit = InflateLimit::Refuse);

// CRC-32 of `data` (polynomial 0xEDB88320, reflected, initial and final XOR 0xFFFFFFFF),
// continuing from `crc` (0 for a fresh checksum). Cost: one table lookup per byte.
std::uint32_t crc32(std::string_view data, std::uint32_t crc = 0);

}  // namespace attnx
