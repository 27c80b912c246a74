// attnx core: reading attention files (see heads.hpp): the format is told by the first bytes,
// the shape and the memory budget are checked before the values are allocated.
#include <attnx/heads.hpp>

#include <algorithm>

#include <attnx/errors.hpp>
#include <attnx/npy_read.hpp>
#include <attnx/pattern.hpp>
#include <attnx/zip_read.hpp>

namespace attnx {

namespace {

[[noreturn]] void bad(const std::string& what) { fail("file", what); }

const char kSaveHint[] = "save the attention with np.save(\"a.npy\", x) or np.savez(\"a.npz\", attention=x, tokens=t)";

// Refuses a float array's dtype before its data is read (npy_float_values checks it again).
void require_float_dtype(const NpyHeader& h) {
  if (h.kind == 'f' && (h.item_size == 2 || h.item_size == 4 || h.item_size == 8) &&
      (h.byte_order == '<' || h.byte_order == '>'))
    return;
  bad("wrong dtype " + npy_dtype_text(h) +
      ": expected float16, float32 or float64 ('<f2', '<f4', '<f8'); cast with .astype(np.float32) "
      "(bfloat16 tensors: .float() first)");
}

void read_npy(std::string_view bytes, AttentionArray& a, std::uint64_t max_bytes, const std::string& name,
              BudgetRemedy remedy) {
  const NpyHeader h = parse_npy_header(bytes);
  require_float_dtype(h);
  set_attention_shape(a, h.shape);
  check_npy_data_size(h, bytes.size() - h.data_offset);
  check_attention_budget(name, estimate_attention_bytes(bytes.size(), h.count, 0), max_bytes, remedy);
  a.values = npy_float_values(bytes, h);
  a.dtype = h.descr;
}

// The entry called `want`, or nullptr.
const ZipEntry* find_entry(const std::vector<ZipEntry>& es, const std::string& want) {
  for (const ZipEntry& e : es)
    if (e.name == want) return &e;
  return nullptr;
}

[[noreturn]] void no_attention_entry(const std::vector<ZipEntry>& es) {
  std::string names;
  bool torch = false;
  for (std::size_t n = 0; n < es.size() && n < 8; ++n) {
    names += (n ? ", " : "") + es[n].name;
    torch = torch || es[n].name.find("data.pkl") != std::string::npos;
  }
  if (es.size() > 8) names += ", ... (" + std::to_string(es.size()) + " entries)";
  if (torch)
    bad("this ZIP archive looks like a PyTorch file (torch.save: it holds " + names +
        "), which is a pickle: refused, never unpickled; " + kSaveHint);
  bad("the .npz archive has no attention.npy (it holds " + (names.empty() ? std::string("nothing") : names) +
      "); " + kSaveHint);
}

// The header of an entry's .npy, read from its first bytes (inflating only those).
NpyHeader entry_header(std::string_view bytes, const ZipEntry& e) {
  return parse_npy_header(zip_entry_prefix(bytes, e, 12 + kMaxNpyHeaderBytes));
}

// Refuses an entry whose header and the archive disagree on its size.
void check_entry_size(const NpyHeader& h, const ZipEntry& e) {
  if (h.data_offset + h.count * h.item_size != e.size)
    bad("its header declares " + std::to_string(h.count * h.item_size) + " bytes of data after " +
        std::to_string(h.data_offset) + " bytes of header, but the archive declares " + std::to_string(e.size) +
        " bytes in all");
}

// Runs f, prefixing a refusal with the entry's name ("attention.npy: ...") unless it has it.
template <class F>
auto in_entry(const std::string& entry, F&& f) {
  try {
    return f();
  } catch (const InvalidArgument& x) {
    const std::string what = x.what();
    if (what.compare(0, entry.size() + 1, entry + ":") == 0) throw;
    bad(entry + ": " + what);
  }
}

void read_npz(std::string_view bytes, AttentionArray& a, std::uint64_t max_bytes, const std::string& name,
              BudgetRemedy remedy) {
  const std::vector<ZipEntry> es = zip_entries(bytes);
  const ZipEntry* att = find_entry(es, "attention.npy");
  const ZipEntry* tok = find_entry(es, "tokens.npy");
  if (!att) no_attention_entry(es);
  const NpyHeader h = in_entry(att->name, [&] {
    NpyHeader x = entry_header(bytes, *att);
    require_float_dtype(x);
    set_attention_shape(a, x.shape);
    check_entry_size(x, *att);
    return x;
  });
  std::uint64_t extra = att->method == 0 ? 0 : att->size;
  if (tok) extra += tok->size * (tok->method == 0 ? 1 : 2);  // inflated + its UTF-8 strings
  check_attention_budget(name, estimate_attention_bytes(bytes.size(), h.count, extra), max_bytes, remedy);
  in_entry(att->name, [&] {
    std::string buffer;
    a.values = npy_float_values(zip_entry_data(bytes, *att, buffer), h);
    return 0;
  });
  a.dtype = h.descr;
  if (!tok) return;
  in_entry(tok->name, [&] {
    std::string buffer;
    const NpyHeader th = entry_header(bytes, *tok);
    check_entry_size(th, *tok);
    a.tokens = npy_unicode_strings(zip_entry_data(bytes, *tok, buffer), th);
    if (a.tokens.size() != static_cast<std::size_t>(a.L))
      bad("holds " + std::to_string(a.tokens.size()) + " strings, but L is " + std::to_string(a.L) +
          " (one token per row)");
    return 0;
  });
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Where a JSON text starts: after a UTF-8 byte order mark and white space; npos when none.
std::size_t json_start(std::string_view s) {
  const std::size_t from = starts_with(s, "\xEF\xBB\xBF") ? 3 : 0;
  const std::size_t at = s.find_first_not_of(" \t\r\n", from);
  return at != std::string_view::npos && (s[at] == '{' || s[at] == '[') ? at : std::string_view::npos;
}

void read_any(std::string_view bytes, AttentionArray& a, std::uint64_t max_bytes, const std::string& name,
              BudgetRemedy remedy) {
  if (starts_with(bytes, "\x93")) {  // .npy's magic (parse_npy_header names a bad one)
    a.format = "npy";
    read_npy(bytes, a, max_bytes, name, remedy);
  } else if (starts_with(bytes, "PK\x03\x04") || starts_with(bytes, "PK\x05\x06")) {
    a.format = "npz";
    read_npz(bytes, a, max_bytes, name, remedy);
  } else if (json_start(bytes) != std::string_view::npos) {
    a.format = "json";
    a.dtype = "json";
    read_attention_json(bytes, a, max_bytes, name, remedy);
  } else if (!bytes.empty() && static_cast<unsigned char>(bytes[0]) == 0x80) {
    bad(std::string("a Python pickle (pickle.dump or an old torch.save): refused, never unpickled; ") + kSaveHint);
  } else if (bytes.empty()) {
    bad("the file is empty");
  } else {
    bad("not an attention file: expected .npy (starting with \\x93NUMPY), .npz (a ZIP archive) or JSON "
        "({\"attention\": ...} or an array)");
  }
}

}  // namespace

std::uint64_t estimate_attention_bytes(std::uint64_t file_bytes, std::uint64_t values, std::uint64_t extra) {
  return file_bytes + 4 * values + extra + 4096;
}

std::string budget_remedy_text(BudgetRemedy r) {
  if (r == BudgetRemedy::Raise) return "raise the budget";
  return "the page's memory budget is fixed: attnx import on the command line reads it with a larger --max-bytes";
}

void check_attention_budget(const std::string& name, std::uint64_t bytes, std::uint64_t max_bytes,
                            BudgetRemedy remedy) {
  check_budget(name + ": reading it", bytes, max_bytes,
               "it holds the file, its inflated arrays and 4 bytes per value; " + budget_remedy_text(remedy));
}

void set_attention_shape(AttentionArray& a, const std::vector<std::uint64_t>& shape) {
  std::string text = "[";
  for (std::size_t k = 0; k < shape.size(); ++k) text += (k ? ", " : "") + std::to_string(shape[k]);
  text += "]";
  const std::size_t r = shape.size();
  if (r < 2 || r > 4)
    bad("the attention has shape " + text + " (rank " + std::to_string(r) +
        "); expected [L, L], [H, L, L] or [layers, H, L, L]");
  if (shape[r - 1] != shape[r - 2])
    bad("the attention is not square: shape " + text +
        " (rows are queries and columns keys, so the last two axes must both be L)");
  if (std::find(shape.begin(), shape.end(), 0u) != shape.end()) bad("the attention has an empty axis: shape " + text);
  const std::uint64_t L = shape[r - 1];
  if (L < static_cast<std::uint64_t>(kMinL)) bad("the attention has L = 1 (shape " + text + "); a head needs L >= 2");
  if (L > static_cast<std::uint64_t>(kMaxImportL))
    bad("L = " + std::to_string(L) + " (shape " + text + ") is above the limit of " + std::to_string(kMaxImportL) +
        " for an imported head; crop the sequence");
  for (std::size_t k = 0; k + 2 < r; ++k)
    if (shape[k] > static_cast<std::uint64_t>(kMaxImportAxis))
      bad("the attention has " + std::to_string(shape[k]) + " " + (k + 3 == r ? "heads" : "layers") +
          " (shape " + text + "), more than " + std::to_string(kMaxImportAxis));
  a.rank = static_cast<int>(r);
  a.L = static_cast<int>(L);
  a.heads = r >= 3 ? static_cast<int>(shape[r - 3]) : 1;
  a.layers = r == 4 ? static_cast<int>(shape[0]) : 1;
}

AttentionArray read_attention(std::string_view bytes, const std::string& name, std::uint64_t max_bytes,
                              BudgetRemedy remedy) {
  AttentionArray a;
  try {
    read_any(bytes, a, max_bytes, name, remedy);
  } catch (const InvalidArgument& e) {
    fail("file", name + ": " + e.what());
  }
  return a;
}

std::string attention_shape_text(const AttentionArray& a) {
  std::string s = "[";
  if (a.rank == 4) s += std::to_string(a.layers) + ", ";
  if (a.rank >= 3) s += std::to_string(a.heads) + ", ";
  return s + std::to_string(a.L) + ", " + std::to_string(a.L) + "]";
}

std::string head_name(const AttentionArray& a, int layer, int head) {
  if (a.rank == 2) return "";
  if (a.rank == 3) return "head " + std::to_string(head);
  return "layer " + std::to_string(layer) + ", head " + std::to_string(head);
}

void require_head_index(const AttentionArray& a, int layer, int head, const std::string& name) {
  const std::string shape = name + " has shape " + attention_shape_text(a);
  if (layer < 0 || layer >= a.layers)
    fail("layer", "layer must be an integer from 0 to " + std::to_string(a.layers - 1) + " (got " +
                      std::to_string(layer) + "): " + shape + (a.rank < 4 ? " (no layer axis)" : ""));
  if (head < 0 || head >= a.heads)
    fail("head", "head must be an integer from 0 to " + std::to_string(a.heads - 1) + " (got " +
                     std::to_string(head) + "): " + shape + (a.rank < 3 ? " (no head axis)" : ""));
}

}  // namespace attnx
