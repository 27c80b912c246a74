// attnx wasm: generic glue for embind registrations of core records, so that a binding file is a
// list of registrations and JS receives ordinary objects (embind 3.1.6 has no binding for
// std::vector as a JS array, nor for "a number or null"). Nothing here knows a record:
//   array_field<&Rec::member>      a std::vector member as a plain JS array (int arrays: the
//                                  core's "none", any negative value, is null)
//   or_null_field<&Rec::member>    a number member whose negative values (the core's "none", e.g.
//                                  a median not reached) are null
//   optional_field<&Rec::member>   a std::optional member, null when empty
//   number_field<&Rec::member>     a number member of a 64-bit type, as a JS number
// and, for inputs read inside a binding's guarded call (never throwing a JS error), ints_from_js /
// numbers_from_js and number_at / int_at / bool_at.
// A value_object also converts JS to C++; these setters then accept null (as the "none" value)
// and never throw: a value of the wrong type becomes "none" (-1, NaN), which the core refuses by
// name where it matters.
#pragma once
#include <emscripten/val.h>

#include <cmath>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace attnx::wasm {

using emscripten::val;

template <class M>
struct MemberOf;
template <class C, class T>
struct MemberOf<T C::*> {
  using Class = C;
  using Type = T;
};
template <auto M>
using ClassOf = typename MemberOf<decltype(M)>::Class;
template <auto M>
using TypeOf = typename MemberOf<decltype(M)>::Type;

// One element of an array for JS: ints with the core's "none" (negative) as null.
template <class T>
val element_to_js(const T& v) {
  if constexpr (std::is_same_v<T, int>) return v < 0 ? val::null() : val(v);
  else return val(v);
}

// A JS array of v's elements (numbers, booleans, strings or registered value_objects).
template <class T>
val array_to_js(const std::vector<T>& v) {
  val a = val::array();
  for (std::size_t i = 0; i < v.size(); ++i) a.set(i, element_to_js(v[i]));
  return a;
}

// A JS array (or typed array) of numbers as ints (an element that is not a finite integer, null
// included: -1, the core's "none"), or as doubles (not a number: NaN). Not an array: empty.
std::vector<int> ints_from_js(const val& a);
std::vector<double> numbers_from_js(const val& a);

// Member o[key] read without throwing: a number (else NaN), an int (else -1), a boolean (else
// `otherwise`).
double number_at(const val& o, const char* key);
int int_at(const val& o, const char* key);
bool bool_at(const val& o, const char* key, bool otherwise);

template <auto M>
val get_array(const ClassOf<M>& c) {
  return array_to_js(c.*M);
}
template <auto M>
void set_array(ClassOf<M>& c, val v) {
  using Elem = typename TypeOf<M>::value_type;
  if constexpr (std::is_same_v<Elem, int>) c.*M = ints_from_js(v);
  else if constexpr (std::is_same_v<Elem, double>) c.*M = numbers_from_js(v);
  else c.*M = emscripten::vecFromJSArray<Elem>(v);  // records: output-only arrays
}

template <auto M>
val get_or_null(const ClassOf<M>& c) {
  return c.*M < 0 ? val::null() : val(c.*M);
}
template <auto M>
void set_or_null(ClassOf<M>& c, val v) {
  const double x = v.isNumber() ? v.as<double>() : -1;
  c.*M = static_cast<TypeOf<M>>(std::isfinite(x) ? x : -1);
}

template <auto M>
val get_optional(const ClassOf<M>& c) {
  using T = typename TypeOf<M>::value_type;
  if (!(c.*M)) return val::null();
  if constexpr (std::is_same_v<T, bool>) return val(*(c.*M));
  else return val(static_cast<double>(*(c.*M)));
}
template <auto M>
void set_optional(ClassOf<M>& c, val v) {
  using T = typename TypeOf<M>::value_type;
  if (v.isNumber()) c.*M = static_cast<T>(v.as<double>());
  else if (v.isTrue() || v.isFalse()) c.*M = static_cast<T>(v.isTrue());
  else c.*M = std::nullopt;
}

template <auto M>
val get_number(const ClassOf<M>& c) {
  return val(static_cast<double>(c.*M));
}
template <auto M>
void set_number(ClassOf<M>& c, val v) {
  c.*M = v.isNumber() ? static_cast<TypeOf<M>>(v.as<double>()) : TypeOf<M>{};
}

}  // namespace attnx::wasm
