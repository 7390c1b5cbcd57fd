// A vector of at most N elements held inline (no heap): decoding a word is a hot path
// and its field values and reserved bytes have small fixed bounds. Elements must be
// trivially copyable, and so is the vector (a copy is a plain byte copy); only
// [0, size) are constructed.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace gpsimd {

template <class T, std::size_t N>
class InlineVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;

  // User-provided, so that value-initialisation does not zero the whole buffer.
  InlineVector() noexcept {}
  // n value-initialised elements.
  explicit InlineVector(std::size_t n) { resize(n); }
  InlineVector(std::initializer_list<T> items) : InlineVector(items.begin(), items.end()) {}
  template <std::input_iterator It>
  InlineVector(It first, It last) {
    if constexpr (std::contiguous_iterator<It> &&
                  std::is_same_v<std::remove_cvref_t<std::iter_reference_t<It>>, T>) {
      const auto n = static_cast<std::size_t>(last - first);
      check(n);
      std::memcpy(bytes_, std::to_address(first), bytes(n));
      size_ = static_cast<uint32_t>(n);
    } else {
      for (; first != last; ++first) push_back(static_cast<T>(*first));
    }
  }

  static constexpr std::size_t capacity() { return N; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return std::launder(reinterpret_cast<T*>(bytes_)); }
  const T* data() const { return std::launder(reinterpret_cast<const T*>(bytes_)); }
  iterator begin() { return data(); }
  iterator end() { return data() + size_; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size_; }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  // The size-changing members throw std::length_error beyond the capacity.
  void reserve(std::size_t n) const { check(n); }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    check(size_ + 1);
    return *::new (static_cast<void*>(bytes_ + bytes(size_++))) T(std::forward<Args>(args)...);
  }
  void push_back(const T& v) { emplace_back(v); }
  // Becomes the first n of the N elements at `src` (all N must be readable): one copy
  // of a fixed size, for hot paths.
  void assign_padded(const T* src, std::size_t n) {
    check(n);
    std::memcpy(bytes_, src, sizeof bytes_);
    size_ = static_cast<uint32_t>(n);
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  void resize(std::size_t n) {
    check(n);
    while (size_ < n) emplace_back();
    size_ = static_cast<uint32_t>(n);
  }

  friend bool operator==(const InlineVector& a, const InlineVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  static constexpr std::size_t bytes(std::size_t n) { return n * sizeof(T); }
  // The throw is kept out of line so that the hot paths (emplace_back) inline.
  static void check(std::size_t n) {
    if (n > N) [[unlikely]]
      overflow(n);
  }
  [[noreturn, gnu::cold, gnu::noinline]] static void overflow(std::size_t n) {
    throw std::length_error("InlineVector: " + std::to_string(n) + " elements, capacity " +
                            std::to_string(N));
  }
  alignas(T) std::byte bytes_[N * sizeof(T)];
  uint32_t size_ = 0;
};

}  // namespace gpsimd
