// attnx core: FloatBuffer, a std::vector<float> whose resize leaves new elements unset (no zero
// fill). For the large buffers whose every element is written before it is read (the Gram ladder's
// columns, working G and rungs; the Gram kernel's packed panel): at L = 4096 a zeroed rung is
// 64 MiB of memory touched for nothing where only one band of it is written now, the rest later.
#pragma once
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace attnx {

// std::allocator that default-initialises (for float: leaves unset) what value-initialisation
// would zero; any other construction is forwarded as usual.
template <class T>
struct NoFillAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = NoFillAllocator<U>;
  };
  NoFillAllocator() = default;
  template <class U>
  NoFillAllocator(const NoFillAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... A>
  void construct(U* p, A&&... a) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
  }
};

using FloatBuffer = std::vector<float, NoFillAllocator<float>>;

}  // namespace attnx
