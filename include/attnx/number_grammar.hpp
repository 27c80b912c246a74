// attnx core: the one grammar of numbers written as text in CLI flags, element attributes and
// links. Published as ECMAScript regular expressions (the pages test values with them, and the
// schema document carries them); the C++ parsers below accept exactly the same texts (a test
// checks them against std::regex on these strings over a corpus).
//   integer:  0, or an optional minus and a digit 1-9 then digits: no plus sign, no leading
//             zeros ("016", "02"), no "-0", no spaces, no point or exponent ("3.0", "1e3").
//   real:     JSON's number syntax (RFC 8259): an optional minus, an integer part as above, an
//             optional fraction ".digits", an optional exponent e/E, sign, digits. No plus sign,
//             no leading zeros, no ".5" or "5.", no "nan", "inf" or hex, no spaces.
//   integer list: integers as above separated by single commas ("16,32,64"), no spaces.
//   real list: reals as above separated by single commas ("4,5.3,8"), no spaces.
// Ranges are not part of the grammar: a text that fits it is then checked against its option's
// range (schema.hpp), so "-1" reads as -1 and is refused by the range with a message naming it.
#pragma once
#include <string>
#include <vector>

namespace attnx {

constexpr const char* kIntegerPattern = "^(?:0|-?[1-9][0-9]*)$";
constexpr const char* kRealPattern = "^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$";
constexpr const char* kIntegerListPattern = "^(?:0|-?[1-9][0-9]*)(?:,(?:0|-?[1-9][0-9]*))*$";
constexpr const char* kRealListPattern =
    "^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?(?:,-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)*$";

// Whether text fits the grammar (the same answer as the patterns above).
bool is_integer_text(const std::string& text);
bool is_real_text(const std::string& text);

// The value of an integer text: false when it does not fit the grammar or its value is outside
// [-(2^63 - 1), 2^63 - 1]. Cost: O(length).
bool parse_integer_text(const std::string& text, long long* out);
// The value of a real text (the nearest double): false when it does not fit the grammar or is
// not finite (1e400). Cost: O(length).
bool parse_real_text(const std::string& text, double* out);
// The values of an integer list text, in order: false when it does not fit the grammar or an
// entry is out of the range of parse_integer_text.
bool parse_integer_list_text(const std::string& text, std::vector<long long>* out);
// The values of a real list text, in order: false when it does not fit the grammar or an entry is
// not finite.
bool parse_real_list_text(const std::string& text, std::vector<double>* out);

// Why a text that looks like a number does not fit the grammar, for messages: "numbers are
// written without a plus sign" (also leading zeros, a point without a digit on each side, a
// minus zero, spaces; number_text_notes() in this order); "" when none of these is the reason
// (the text fits, or is no number at all).
std::string number_text_note(const std::string& text);

// The same notes as ECMAScript patterns, in the order number_text_note tries them (the first
// that matches somewhere in a text gives its note; a test checks both agree over a corpus). The
// schema document publishes them with the three patterns above, so the pages explain a refused
// text exactly as the CLI does.
struct NumberNote {
  const char* pattern;
  const char* note;
};
const std::vector<NumberNote>& number_text_notes();

}  // namespace attnx
