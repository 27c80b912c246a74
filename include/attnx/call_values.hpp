// attnx core: reading a caller's single values for the JavaScript API's calls that take plain
// arguments or small option objects (the lab's calls, bounds, the heads calls): numbers, integers,
// flags and lists read from a JsonValue (the WebAssembly module converts JS values generically).
// Every refusal is an InvalidArgument naming the field and the allowed range, the value named as
// JavaScript prints it ("(got 2.5)", "(got \"x\")", "(got undefined)"), as call_options.hpp words
// its own.
#pragma once
#include <string>
#include <vector>

#include "json.hpp"

namespace attnx {

// An integer in [lo, hi]: "<field> must be an integer from lo to hi (got v)".
long long int_value(const JsonValue& v, const std::string& field, long long lo, long long hi);
// An integer within the option table's range of option `name` (the "wasm" context's maximum),
// named `field` in messages (the caller's name for it: "dMax" for option dmax).
long long option_value(const JsonValue& v, const char* name, const std::string& field);
// A finite number: "<field> must be a finite number (got v)".
double number_value(const JsonValue& v, const std::string& field);
// true or false; absent (missing, null, undefined): `otherwise`.
bool flag_value(const JsonValue& v, const std::string& field, bool otherwise = false);
// A string: "<field> must be a string (got v)".
const std::string& text_value(const JsonValue& v, const std::string& field);

// An array (JSON array or typed array) of integers in [lo, hi]; refusals name field[i].
std::vector<int> int_list(const JsonValue& a, const std::string& field, long long lo, long long hi);
// An array of numbers or nulls: null and undefined entries become `none`, other entries must be
// numbers (NaN and infinities allowed: the caller's own "not known"); refusals name field[i].
std::vector<double> numbers_or_none(const JsonValue& a, const std::string& field, double none);
// An array of objects (JSON array only); refusals name field[i].
const std::vector<JsonValue>& object_list(const JsonValue& a, const std::string& field);

// Member `key` of object o; a missing member (or o not an object) is JavaScript's undefined.
const JsonValue& member(const JsonValue& o, const std::string& key);
// The object `o` as a call's options: absent is an empty object; anything else but a plain object
// is refused ("options must be a plain object"), and so is a name not in `allowed` (a typo must
// not fall back to a default): "unknown option \"x\" (allowed: a, b)".
const JsonValue& options_value(const JsonValue& o, const std::vector<std::string>& allowed);

}  // namespace attnx
