#pragma once
// What the exchange patterns need to know of a partition: who owns a vertex, and where it sits in
// its owner's block. Partition1D is one; 2D grids and node groups will be others.
#include <concepts>

#include "core/types.hpp"

namespace g500 {

template <class P>
concept VertexPartition = requires(const P& p, vertex_t v) {
  { p.owner(v) } -> std::convertible_to<int>;
  { p.owns(v) } -> std::convertible_to<bool>;
  { p.to_local(v) } -> std::convertible_to<local_t>;
};

}  // namespace g500
