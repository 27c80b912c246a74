// attnx wasm: JavaScript values to and from JsonValue, errors and progress (see js_value.hpp).
#include "js_value.hpp"

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
    return make_error("RangeError", e.what(), e.field(), "invalid");
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

Progress js_progress(const val& callback) {
  if (callback.typeOf().as<std::string>() != "function") return nullptr;
  return [callback](double f) { return !callback(val(f)).strictlyEquals(val(false)); };
}

}  // namespace attnx::wasm
