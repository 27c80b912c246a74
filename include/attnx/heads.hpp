// attnx core: real attention maps as files (issue 24). A model's attention, as NumPy or
// CircuitsVis write it, read from bytes in memory into one array of float values:
//   * .npy: float16/32/64, C or Fortran order, shape [L, L], [H, L, L] or [layers, H, L, L];
//   * .npz (np.savez: stored; np.savez_compressed: deflate): attention.npy and, optionally,
//     tokens.npy (a 1-D unicode array of L strings);
//   * JSON: {"tokens": [...], "attention": [H][L][L]} (CircuitsVis), or a bare [L][L],
//     [H][L][L] or [layers][H][L][L] (BertViz) array of numbers.
// Values are post-softmax probabilities (rows are queries, columns keys) or, for the softmax
// option, scores; they are checked when a head is used (head_import.hpp). The same code serves
// the CLI (`attnx import`) and the WebAssembly module: bytes in, records out, no I/O.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "memory.hpp"

namespace attnx {

// Largest L of an imported head: the pages' limit (a dense head holds L^2 values).
constexpr int kMaxImportL = kBrowserMaxL;
// Largest layer or head count the options accept (the file and the memory budget decide).
constexpr int kMaxImportAxis = 1 << 20;

// What a refusal over the memory budget suggests, by who reads the file: Raise, where the budget
// can be raised (the CLI's --max-bytes, the JS API's maxBytes: "raise the budget", which the CLI
// words as its flag); Fixed, where it cannot (the explorer page: attnx import on the command line).
enum class BudgetRemedy { Raise, Fixed };
// "raise the budget", or Fixed's "the page's memory budget is fixed: attnx import on the command
// line reads it with a larger --max-bytes".
std::string budget_remedy_text(BudgetRemedy r);

struct AttentionArray {
  int rank = 3;                     // 2: [L, L]; 3: [H, L, L]; 4: [layers, H, L, L]
  int layers = 1, heads = 1, L = 0;
  std::vector<float> values;        // layers * heads * L * L, C order ([layer][head][query][key])
  std::vector<std::string> tokens;  // L strings (UTF-8) when the file names them, else empty
  std::string format;               // "npy", "npz" or "json"
  std::string dtype;                // "<f4", "<f2", ">f8", ... or "json"

  // The L x L values of head h of layer l (row-major), indices assumed valid.
  const float* head(int layer, int h) const {
    return values.data() + (static_cast<std::size_t>(layer) * heads + h) * L * L;
  }
};

// Reads an attention file (format told by its first bytes: "\x93NUMPY" .npy, "PK" .npz, '{' or
// '[' JSON after an optional UTF-8 byte order mark). `name` (a file name) starts every message.
// Checks, before allocating the values: the shape (rank 2 to 4, square, 2 <= L <= kMaxImportL,
// no empty axis), the data size, and the memory budget: the file's bytes + inflated .npz
// entries + 4 bytes per value (JSON: the text, 4 bytes per value and, for an object, its tokens:
// at most the text again; its shape is found by a scan of the text before any value is read).
// Refusals: InvalidArgument("file", "NAME: <problem>") (bad magic, truncated data, wrong dtype,
// pickles, not square, tokens that are not Unicode text, ...) and BudgetExceeded("NAME: reading
// it needs about X MiB ...; " + budget_remedy_text(remedy)). Cost: O(file) time; memory as estimated.
AttentionArray read_attention(std::string_view bytes, const std::string& name, std::uint64_t max_bytes,
                              BudgetRemedy remedy = BudgetRemedy::Raise);

// "[4, 64, 64]"
std::string attention_shape_text(const AttentionArray& a);
// The words naming a head in messages: "" (rank 2), "head 2" (rank 3), "layer 1, head 2" (rank 4).
std::string head_name(const AttentionArray& a, int layer, int head);

// Refuses a layer or head outside the file's axes, naming the range and the shape:
// InvalidArgument("layer", "layer must be an integer from 0 to 0 (got 1): NAME has shape
// [4, 64, 64] (no layer axis)"), the same for "head".
void require_head_index(const AttentionArray& a, int layer, int head, const std::string& name);

// Checks a declared shape (rank, square, L range, empty axes) and fills a's rank and axes.
// Used by the readers; exposed for the JSON reader and tests. Refusals name the shape.
void set_attention_shape(AttentionArray& a, const std::vector<std::uint64_t>& shape);

// Peak memory of holding a file of `file_bytes` and `values` float values, plus `extra` bytes
// (inflated entries); the readers check it against the budget before allocating.
std::uint64_t estimate_attention_bytes(std::uint64_t file_bytes, std::uint64_t values, std::uint64_t extra);
// Throws BudgetExceeded("NAME: reading it needs about X MiB, above the memory budget of Y MiB;
// it holds ...; <remedy>") when `bytes` is above max_bytes.
void check_attention_budget(const std::string& name, std::uint64_t bytes, std::uint64_t max_bytes,
                            BudgetRemedy remedy = BudgetRemedy::Raise);

// The JSON form (heads_json.cpp): reads text already known to be JSON. Messages without NAME.
void read_attention_json(std::string_view text, AttentionArray& a, std::uint64_t max_bytes, const std::string& name,
                         BudgetRemedy remedy);

}  // namespace attnx
