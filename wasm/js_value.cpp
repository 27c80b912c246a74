// attnx wasm: JavaScript values to and from JsonValue, errors and progress (see js_value.hpp).
#include "js_value.hpp"

#include <algorithm>
#include <new>

#include <attnx/call_options.hpp>
#include <attnx/errors.hpp>

namespace attnx::wasm {

namespace {

using Type = JsonValue::Type;

JsonValue from_js_at(const val& v, int depth) {
  if (v.isNull()) return JsonValue();
  if (v.isTrue() || v.isFalse()) return JsonValue::of(v.isTrue());
  if (v.isNumber()) return JsonValue::of(v.as<double>());
  JsonValue j;
  const std::string type = v.typeOf().as<std::string>();
  if (type == "string") {
    j.type = Type::String;
    j.str = v.as<std::string>();  // moved, not copied: texts may be large
  } else if (type != "object" || depth > 64) {
    j.type = Type::Other;
    j.str = type != "object" ? val::global("String")(v).as<std::string>() : "an object nested too deeply";
    if (type == "bigint") j.str += "n";
  } else if (v.isArray()) {
    j.type = Type::Array;
    const unsigned n = v["length"].as<unsigned>();
    for (unsigned i = 0; i < n; ++i) j.arr.push_back(from_js_at(v[i], depth + 1));
  } else if (v["BYTES_PER_ELEMENT"].isNumber()) {  // a typed array
    j.type = Type::Numbers;
    j.nums = emscripten::convertJSArrayToNumberVector<double>(v);
  } else {
    j.type = Type::Object;
    const val keys = val::global("Object").call<val>("keys", v);
    const unsigned n = keys["length"].as<unsigned>();
    for (unsigned i = 0; i < n; ++i) {
      const std::string k = keys[i].as<std::string>();
      j.obj.emplace_back(k, from_js_at(v[k], depth + 1));
    }
  }
  return j;
}

val make_error(const char* ctor, const std::string& message, const std::string& field, const char* kind) {
  val e = val::global(ctor).new_(val(message));
  if (!field.empty()) e.set("field", field);
  e.set("kind", val(kind));
  return e;
}

}  // namespace

JsonValue from_js(const val& v) { return from_js_at(v, 0); }

val to_js(const JsonValue& j) {
  switch (j.type) {
    case Type::Null: return val::null();
    case Type::Bool: return val(j.b);
    case Type::Number: return val(j.num);
    case Type::String: return val(j.str);
    case Type::Numbers: return typed_array(j.nums);
    case Type::Other: return val::undefined();
    case Type::Array: {
      val a = val::array();
      for (std::size_t i = 0; i < j.arr.size(); ++i) a.set(i, to_js(j.arr[i]));
      return a;
    }
    case Type::Object: break;
  }
  val o = val::object();
  for (const auto& m : j.obj) o.set(m.first, to_js(m.second));
  return o;
}

val error_to_js(std::exception_ptr ep) {
  try {
    std::rethrow_exception(ep);
  } catch (const InvalidArgument& e) {
    val err = make_error("RangeError", e.what(), e.field(), "invalid");
    val fields = val::array();  // every field refused in one pass (Problems), field first
    for (std::size_t i = 0; i < e.fields().size(); ++i) fields.set(i, e.fields()[i]);
    err.set("fields", fields);
    return err;
  } catch (const BudgetExceeded& e) {
    return make_error("RangeError", e.what(), "maxBytes", "budget");
  } catch (const std::bad_alloc&) {
    return make_error("Error", "out of memory: the WebAssembly heap could not grow (reduce L or d, "
                      "or lower maxBytes)", "", "memory");
  } catch (const std::exception& e) {
    return make_error("Error", std::string("internal error: ") + e.what(), "", "internal");
  } catch (...) {
    return make_error("Error", "internal error: unknown exception", "", "internal");
  }
}

std::string bytes_from_js(const val& v) {
  const bool view = v.instanceof(val::global("ArrayBuffer")) || val::global("ArrayBuffer").call<bool>("isView", v);
  if (!view) throw InvalidArgument("bytes", "bytes must be a Uint8Array or an ArrayBuffer (got " + describe_value(from_js(v)) + ")");
  const val u8 = v.instanceof(val::global("ArrayBuffer")) ? val::global("Uint8Array").new_(v)
                 : val::global("Uint8Array").new_(v["buffer"], v["byteOffset"], v["byteLength"]);
  std::string s(u8["length"].as<std::size_t>(), '\0');
  if (!s.empty()) val(emscripten::typed_memory_view(s.size(), reinterpret_cast<unsigned char*>(s.data()))).call<void>("set", u8);
  return s;
}

namespace {

// v as a Float32Array (undefined, null: an empty one); anything else is refused naming field.
val float32_array(const val& v, const char* field) {
  if (v.isUndefined() || v.isNull()) return val::global("Float32Array").new_(0);
  if (!v.instanceof(val::global("Float32Array")))
    throw InvalidArgument(field, std::string(field) + " must be a Float32Array (got " + describe_value(from_js(v)) + ")");
  return v;
}

}  // namespace

JoinedFloats::JoinedFloats(const val& first, const char* first_field, const val& second,
                           const char* second_field)
    : a(float32_array(first, first_field)), b(float32_array(second, second_field)),
      a_size(a["length"].as<std::size_t>()), b_size(b["length"].as<std::size_t>()) {}

void JoinedFloats::read(float* dst, std::size_t offset, std::size_t n) const {
  while (n > 0) {  // a piece of a, then of b
    const bool in_a = offset < a_size;
    const std::size_t at = in_a ? offset : offset - a_size, have = (in_a ? a_size : b_size) - at;
    const std::size_t m = std::min(n, have);
    val(emscripten::typed_memory_view(m, dst)).call<void>("set", (in_a ? a : b).call<val>("subarray", at, at + m));
    dst += m;
    offset += m;
    n -= m;
  }
}

std::vector<float> floats_from_js(const val& v, const char* field) {
  const val f = float32_array(v, field);
  std::vector<float> out(f["length"].as<std::size_t>());
  if (!out.empty()) val(emscripten::typed_memory_view(out.size(), out.data())).call<void>("set", f);
  return out;
}

Progress js_progress(const val& callback) {
  if (callback.typeOf().as<std::string>() != "function") return nullptr;
  return [callback](double f) { return !callback(val(f)).strictlyEquals(val(false)); };
}

}  // namespace attnx::wasm
