#pragma once
// A value alone on its cache line(s). Per-thread values that threads write side by side (the end
// pointer of the vector each thread pushes to, say) otherwise share a line, and every write by one
// thread stalls the others (false sharing): bucket pushes ran 3.5x slower with two threads.
namespace g500 {

inline constexpr int kCacheLine = 64;

template <class T>
struct alignas(kCacheLine) Padded {
  T value;
};

}  // namespace g500
