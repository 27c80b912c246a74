// attnx wasm: the one generic conversion between JavaScript values and the core's JsonValue, the
// error and progress adapters, and Record, the helper every registration (records.cpp) uses.
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <exception>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <attnx/construct.hpp>
#include <attnx/json.hpp>

namespace attnx::wasm {

using emscripten::val;

// Any JS value as a JsonValue: objects by Object.keys, typed arrays as Numbers (one bulk copy),
// undefined, bigints, functions and symbols as Other ("undefined", "5n"), and anything nested
// deeper than 64 levels (a cycle) as Other. Back: Numbers -> Float64Array, Other -> undefined.
JsonValue from_js(const val& v);
val to_js(const JsonValue& v);
// A number the core marks unknown or not reached when negative or NaN: null then. A list of them
// as a plain array.
inline val known(double v) { return v >= 0 ? val(v) : val::null(); }
template <class T>
val knowns(const std::vector<T>& v) {
  val a = val::array();
  for (std::size_t i = 0; i < v.size(); ++i) a.set(i, known(v[i]));
  return a;
}

// A JS Error for a caught exception: InvalidArgument and BudgetExceeded -> RangeError,
// std::bad_alloc and the rest -> Error, with .field (when known) and .kind ("invalid",
// "budget", "memory", "internal"). The core names fields as the JS API does.
val error_to_js(std::exception_ptr e);

// f()'s result as a JS value; a C++ exception becomes a RETURNED JS Error (error_to_js), which
// web/lib/attnx.js throws: Emscripten 3.1.6 cannot give JS an escaping exception's message
// (TOOLCHAIN.md), and returning runs every destructor and keeps the module usable.
template <class F>
val guarded(F&& f) {
  try {
    return val(f());
  } catch (...) {
    return error_to_js(std::current_exception());
  }
}

// A JS progress callback as the core's Progress (false, strictly, stops); none if no function.
Progress js_progress(const val& callback);
// The bytes of a Uint8Array (any typed array or DataView: its bytes) or ArrayBuffer, copied once
// into the wasm heap; anything else is refused (InvalidArgument "bytes").
std::string bytes_from_js(const val& v);
// The floats of a Float32Array, copied once into the wasm heap; undefined or null: none; anything
// else is refused (InvalidArgument naming field).
std::vector<float> floats_from_js(const val& v, const char* field);
// Floats of two Float32Arrays read as one list (a, then b), for a core call that copies them
// straight to where they go: a_size + b_size is their total, read(dst, offset, n) copies floats offset ..
// offset+n-1 to dst. Anything but a Float32Array (or undefined / null: empty) is refused
// (InvalidArgument naming the field).
struct JoinedFloats {
  val a, b;
  std::size_t a_size = 0, b_size = 0;
  JoinedFloats(const val& first, const char* first_field, const val& second, const char* second_field);
  void read(float* dst, std::size_t offset, std::size_t n) const;
};

// A new JS typed array holding a copy of v (any allocator: FloatBuffer too). By hand, as embind
// has no typed-array value type (register_vector makes a C++ object JS must delete): one copy
// through typed_memory_view.
template <class T, class Alloc>
val typed_array(const std::vector<T, Alloc>& v) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int> ||
                std::is_same_v<T, unsigned char>);
  const char* name = std::is_same_v<T, float> ? "Float32Array" : std::is_same_v<T, double> ? "Float64Array"
                     : std::is_same_v<T, int> ? "Int32Array" : "Uint8Array";
  val a = val::global(name).new_(v.size());
  if (!v.empty()) a.call<void>("set", val(emscripten::typed_memory_view(v.size(), v.data())));
  return a;
}

template <class T>
val record(const T& x);
// A plain JS array of v's numbers or strings, or of records (registered T).
template <class E>
val list(const std::vector<E>& v) {
  if constexpr (std::is_arithmetic_v<E> || std::is_same_v<E, std::string>) return val::array(v);
  val a = val::array();
  for (std::size_t i = 0; i < v.size(); ++i) a.set(i, record(v[i]));
  return a;
}

// Records cross by reference: value_object copies the C++ value it converts, so a record goes as
// a pointer into the result owning it (alive while embind reads it), and no array is copied twice.
template <class T>
struct Ref {
  const T* p = nullptr;
};
template <class T>
Ref<T> ref(const T& x) {
  return {&x};
}
template <class T>
val record(const T& x) {  // x as a new plain JS object
  return val(ref(x));
}

// A member as embind hands it over: a record by reference, anything else as it is.
template <class M>
auto embind_value(const M& x) {
  if constexpr (std::is_class_v<M> && !std::is_same_v<M, std::string>) return ref(x);
  else return x;
}

// A field's getter as embind calls it: f(*ref.p, data), data being the field's own getter (a
// lambda or a member pointer), kept for the module's lifetime. One type per record and result type,
// with embind's getter policy for it below: a std::function per field (what embind offers for a
// getter with state) instantiated a class with virtual functions and type info per lambda, and
// took records.cpp 45 s of CPU to compile (docs/performance.md).
template <class T, class R>
struct FieldGetter {
  R (*f)(const T&, const void*);
  const void* data;
  R operator()(const Ref<T>& r) const { return f(*r.p, data); }
};

// Registers T as value_object<Ref<T>>, one field per getter of a const T&. Results only go to
// JS: the setters value_object requires do nothing.
template <class T>
class Record {
 public:
  explicit Record(const char* name) : o_(name) {}
  template <class G>
  Record& get(const char* name, G g) {
    using R = std::invoke_result_t<G, const T&>;
    o_.field(name, FieldGetter<T, R>{&call<G, R>, new G(g)}, &ignore<R>);
    return *this;
  }
  template <class M>
  Record& field(const char* name, M T::*m) {  // a number, text, flag or registered record
    return get(name, Member<M>{m});
  }
  template <class S, class M>
  Record& field(const char* name, S T::*s, M S::*m) {  // member m of member s
    return get(name, Nested<S, M>{s, m});
  }
  template <class E>
  Record& array(const char* name, std::vector<E> T::*m) {  // as a typed array
    return get(name, Typed<E>{m});
  }
  template <class E>
  Record& list(const char* name, std::vector<E> T::*m) {  // as a plain array (wasm::list)
    return get(name, Plain<E>{m});
  }

 private:
  template <class M>
  struct Member {
    M T::*m;
    auto operator()(const T& x) const { return embind_value(x.*m); }
  };
  template <class S, class M>
  struct Nested {
    S T::*s;
    M S::*m;
    auto operator()(const T& x) const { return embind_value(x.*s.*m); }
  };
  template <class E>
  struct Typed {
    std::vector<E> T::*m;
    val operator()(const T& x) const { return typed_array(x.*m); }
  };
  template <class E>
  struct Plain {
    std::vector<E> T::*m;
    val operator()(const T& x) const { return wasm::list(x.*m); }
  };
  template <class G, class R>
  static R call(const T& x, const void* g) {
    return (*static_cast<const G*>(g))(x);
  }
  template <class R>
  static void ignore(Ref<T>&, R) {}
  emscripten::value_object<Ref<T>> o_;
};

}  // namespace attnx::wasm

namespace emscripten::internal {
// embind's getter policy for FieldGetter (as for its own getter types): the getter is copied once
// as the field's context and called with the Ref embind converts.
template <class T, class R>
struct GetterPolicy<attnx::wasm::FieldGetter<T, R>> {
  typedef R ReturnType;
  typedef attnx::wasm::FieldGetter<T, R> Context;
  typedef BindingType<ReturnType> Binding;
  typedef typename Binding::WireType WireType;
  template <class ClassType>
  static WireType get(const Context& context, const ClassType& ptr) {
    return Binding::toWireType(context(ptr));
  }
  static void* getContext(const Context& context) { return internal::getContext(context); }
};
}  // namespace emscripten::internal
