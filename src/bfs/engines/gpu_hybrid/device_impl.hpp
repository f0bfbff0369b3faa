#pragma once
// The device half of gpu-hybrid, written once with Thrust: device_cuda.cu builds it for CUDA
// (nvcc) and device_cpu.cpp for the CPU (g++, Thrust's OpenMP system). Thrust algorithms, device
// lambdas and libcu++'s atomic_ref (which both compilers take) only.
#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/remove.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

#include <algorithm>
#include <cuda/atomic>

#include "bfs/engines/device_thrust.hpp"
#include "bfs/engines/gpu_hybrid/device.hpp"
#include "bfs/engines/scratch_pool.hpp"

namespace g500::gpu_hybrid {

double device_bytes(double n_local, double arcs, double n_all, int id_bytes, int ranks, double arcs_per_rank) {
  // Rows (offsets, ids); parents; found flags (a byte a vertex); the frontier queue and its degree
  // scan; the whole graph's frontier bitmap; with other ranks, a top-down round's candidates, what
  // arrives and the sort's scratch, each a pair of ids.
  const double round = ranks > 1 ? std::min(top_down_round(arcs_per_rank), arcs) : 0;
  return 8 * (n_local + 1) + id_bytes * arcs + 8 * n_local + n_local + id_bytes * n_local + 8 * (n_local + 1) +
         n_all / 8 + 3 * 2 * id_bytes * round;
}

// Named, not anonymous: types in an anonymous namespace inside lambdas of a class outside it draw
// GCC's -Wsubobject-linkage under nvcc.
namespace detail {

// Sets an unreached vertex's parent; true for the one caller that did (top-down claims race).
G500_HD inline bool claim(std::int64_t* slot, std::int64_t parent) {
  cuda::atomic_ref<std::int64_t, cuda::thread_scope_device> ref(*slot);
  if (ref.load(cuda::std::memory_order_relaxed) != -1) return false;
  std::int64_t unset = -1;
  return ref.compare_exchange_strong(unset, parent, cuda::std::memory_order_relaxed);
}

// A level's finds and their degrees, summed in one pass.
struct FoundSums {
  std::int64_t vertices = 0, edges = 0;
};
struct AddFoundSums {
  G500_HD FoundSums operator()(const FoundSums& a, const FoundSums& b) const {
    return {a.vertices + b.vertices, a.edges + b.edges};
  }
};

// Frontier edge k of a top-down step: the frontier vertex it leaves (local) and where it goes
// (global), by binary search on the degree prefix sum, so that a hub's row is spread over many
// work items. (At namespace scope: nvcc's device lambdas capture no private member types.)
struct FrontierEdge {
  std::int64_t from, to;
};
template <class Id>
struct FrontierEdges {
  const std::int64_t* scan;  // f + 1 entries
  std::int64_t f;
  const Id* queue;
  const std::int64_t* off;
  const Id* col;
  G500_HD FrontierEdge operator()(std::int64_t k) const {
    std::int64_t lo = 0, hi = f - 1;  // the last i with scan[i] <= k
    while (lo < hi) {
      const std::int64_t mid = (lo + hi + 1) / 2;
      if (scan[mid] <= k)
        lo = mid;
      else
        hi = mid - 1;
    }
    const std::int64_t u = static_cast<std::int64_t>(queue[lo]);
    return {u, static_cast<std::int64_t>(col[off[u] + (k - scan[lo])])};
  }
};

}  // namespace detail

template <class Id>
class ThrustDevice final : public Device<Id> {
 public:
  ThrustDevice(const HostGraph<Id>& g, std::int64_t num_vertices)
      : offsets_(g.offsets.begin(), g.offsets.end()),
        columns_(g.columns.begin(), g.columns.end()),
        starts_(g.starts.begin(), g.starts.end()),
        ranks_(static_cast<int>(g.starts.size()) - 1),
        first_(g.starts[g.rank]),
        n_local_(g.starts[g.rank + 1] - g.starts[g.rank]),
        parents_(n_local_),
        found_(n_local_),
        bitmap_((num_vertices + 63) / 64) {}

  std::int64_t start(std::int64_t root) override {
    thrust::fill(parents_.begin(), parents_.end(), std::int64_t{-1});
    thrust::fill(found_.begin(), found_.end(), std::uint8_t{0});
    if (root < first_ || root >= first_ + n_local_) return 0;
    const std::int64_t r = root - first_;
    parents_[r] = root;
    found_[r] = 1;
    return offsets_[r + 1] - offsets_[r];
  }

  std::int64_t begin_top_down() override {
    const std::int64_t f = thrust::count(scratch(), found_.begin(), found_.end(), std::uint8_t{1});
    queue_.resize(f);
    const auto local = thrust::counting_iterator<std::int64_t>(0);
    thrust::copy_if(scratch(), local, local + n_local_, found_.begin(), queue_.begin(),
                    [] G500_HD(std::uint8_t flag) { return flag != 0; });
    thrust::fill(found_.begin(), found_.end(), std::uint8_t{0});
    // Each frontier vertex's degree, then their exclusive prefix sum: scan_[f] is the total.
    scan_.resize(f + 1);
    const std::int64_t* off = thrust::raw_pointer_cast(offsets_.data());
    thrust::transform(queue_.begin(), queue_.end(), scan_.begin(), [off] G500_HD(Id u) { return off[u + 1] - off[u]; });
    scan_[f] = 0;
    thrust::exclusive_scan(scratch(), scan_.begin(), scan_.end(), scan_.begin());
    return scan_[f];
  }

  std::int64_t expand(std::int64_t first, std::int64_t last, std::vector<std::int64_t>& send_counts) override {
    send_counts.assign(ranks_, 0);
    const detail::FrontierEdges<Id> edges = frontier_edges();
    std::int64_t* parents = thrust::raw_pointer_cast(parents_.data());
    std::uint8_t* found = thrust::raw_pointer_cast(found_.data());
    const std::int64_t lo = first_, n_local = n_local_;
    const auto items = thrust::counting_iterator<std::int64_t>(first);
    if (ranks_ == 1) {  // every neighbour is this rank's
      thrust::for_each(items, items + (last - first), [=] G500_HD(std::int64_t k) {
        const detail::FrontierEdge e = edges(k);
        if (detail::claim(parents + e.to, e.from + lo)) found[e.to] = 1;
      });
      return 0;
    }
    // One work item an edge: a neighbour here is claimed and its item marked with a vertex of
    // this block (which no candidate holds), to be removed with the others.
    candidates_.resize(last - first);
    thrust::transform(items, items + (last - first), candidates_.begin(), [=] G500_HD(std::int64_t k) {
      const detail::FrontierEdge e = edges(k);
      const std::int64_t local = e.to - lo;
      if (local >= 0 && local < n_local) {
        if (detail::claim(parents + local, e.from + lo)) found[local] = 1;
        return Candidate<Id>{static_cast<Id>(lo), static_cast<Id>(lo)};
      }
      return Candidate<Id>{static_cast<Id>(e.to), static_cast<Id>(e.from + lo)};
    });
    auto end =
        thrust::remove_if(scratch(), candidates_.begin(), candidates_.end(), [=] G500_HD(const Candidate<Id>& c) {
          return static_cast<std::int64_t>(c.vertex) - lo >= 0 && static_cast<std::int64_t>(c.vertex) - lo < n_local;
        });
    thrust::sort(scratch(), candidates_.begin(), end,
                 [] G500_HD(const Candidate<Id>& a, const Candidate<Id>& b) { return a.vertex < b.vertex; });
    end = thrust::unique(scratch(), candidates_.begin(), end,
                         [] G500_HD(const Candidate<Id>& a, const Candidate<Id>& b) { return a.vertex == b.vertex; });
    const std::int64_t k = end - candidates_.begin();
    // Sorted by vertex means grouped by owner: each owner's run starts at the first candidate not
    // below its block's start.
    const auto vertices = thrust::make_transform_iterator(
        candidates_.begin(), [] G500_HD(const Candidate<Id>& c) { return static_cast<std::int64_t>(c.vertex); });
    bounds_.resize(ranks_ + 1);
    thrust::lower_bound(vertices, vertices + k, starts_.begin(), starts_.end(), bounds_.begin());
    const thrust::host_vector<std::int64_t> b = bounds_;
    for (int r = 0; r < ranks_; ++r) send_counts[r] = (r + 1 < ranks_ ? b[r + 1] : k) - b[r];
    return k;
  }

  const Candidate<Id>* candidates() const override { return thrust::raw_pointer_cast(candidates_.data()); }
  void candidates_to_host(Candidate<Id>* out, std::int64_t count) const override {
    thrust::copy(candidates_.begin(), candidates_.begin() + count, out);
  }
  Candidate<Id>* receive_buffer(std::int64_t n) override {
    received_.resize(n);
    return thrust::raw_pointer_cast(received_.data());
  }
  void receive_from_host(const Candidate<Id>* in, std::int64_t n) override {
    received_.resize(n);
    thrust::copy(in, in + n, received_.begin());
  }
  void claim_received(std::int64_t n) override {
    std::int64_t* parents = thrust::raw_pointer_cast(parents_.data());
    std::uint8_t* found = thrust::raw_pointer_cast(found_.data());
    const std::int64_t lo = first_;
    thrust::for_each(received_.begin(), received_.begin() + n, [=] G500_HD(const Candidate<Id>& c) {
      const std::int64_t local = static_cast<std::int64_t>(c.vertex) - lo;
      if (detail::claim(parents + local, static_cast<std::int64_t>(c.parent))) found[local] = 1;
    });
  }

  std::uint64_t* begin_bottom_up() override {
    // One work item a word of this block: its 64 vertices' flags packed into one word.
    const std::uint8_t* found = thrust::raw_pointer_cast(found_.data());
    std::uint64_t* words = thrust::raw_pointer_cast(bitmap_.data()) + first_ / 64;
    const std::int64_t n_local = n_local_;
    const auto items = thrust::counting_iterator<std::int64_t>(0);
    thrust::for_each(items, items + (n_local_ + 63) / 64, [=] G500_HD(std::int64_t j) {
      std::uint64_t word = 0;
      const std::int64_t end = n_local - 64 * j < 64 ? n_local - 64 * j : 64;
      for (std::int64_t b = 0; b < end; ++b) word |= static_cast<std::uint64_t>(found[64 * j + b] != 0) << b;
      words[j] = word;
    });
    thrust::fill(found_.begin(), found_.end(), std::uint8_t{0});
    return thrust::raw_pointer_cast(bitmap_.data());
  }
  void frontier_words_to_host(std::uint64_t* out, std::int64_t first_word, std::int64_t words) const override {
    thrust::copy(bitmap_.begin() + first_word, bitmap_.begin() + first_word + words, out);
  }
  void frontier_from_host(const std::uint64_t* in, std::int64_t words) override {
    thrust::copy(in, in + words, bitmap_.begin());
  }

  std::int64_t bottom_up() override {
    const std::int64_t* off = thrust::raw_pointer_cast(offsets_.data());
    const Id* col = thrust::raw_pointer_cast(columns_.data());
    const std::uint64_t* frontier = thrust::raw_pointer_cast(bitmap_.data());
    std::int64_t* parents = thrust::raw_pointer_cast(parents_.data());
    std::uint8_t* found = thrust::raw_pointer_cast(found_.data());
    // One work item a vertex, the only one that writes its parent and flag; the reduction reads
    // each item once and sums the entries each looked at.
    const auto items = thrust::counting_iterator<std::int64_t>(0);
    return thrust::transform_reduce(
        scratch(), items, items + n_local_,
        [=] G500_HD(std::int64_t v) -> std::int64_t {
          if (parents[v] != -1) return 0;
          for (std::int64_t j = off[v]; j < off[v + 1]; ++j) {
            const std::int64_t w = static_cast<std::int64_t>(col[j]);
            if ((frontier[w >> 6] >> (w & 63)) & 1) {
              parents[v] = w;
              found[v] = 1;
              return j - off[v] + 1;
            }
          }
          return off[v + 1] - off[v];
        },
        std::int64_t{0}, thrust::plus<std::int64_t>());
  }

  Found end_level() override {
    const std::int64_t* off = thrust::raw_pointer_cast(offsets_.data());
    const std::uint8_t* found = thrust::raw_pointer_cast(found_.data());
    const auto items = thrust::counting_iterator<std::int64_t>(0);
    const detail::FoundSums sums = thrust::transform_reduce(
        scratch(), items, items + n_local_,
        [=] G500_HD(std::int64_t v) {
          return found[v] ? detail::FoundSums{1, off[v + 1] - off[v]} : detail::FoundSums{};
        },
        detail::FoundSums{}, detail::AddFoundSums{});
    return {sums.vertices, sums.edges};
  }

  void parents_to_host(std::span<std::int64_t> out) const override {
    thrust::copy(parents_.begin(), parents_.end(), out.begin());
  }

 private:
  // The execution policy of every algorithm that needs scratch memory: the pool's blocks.
  auto scratch() { return thrust::device(pool_); }
  detail::FrontierEdges<Id> frontier_edges() const {
    return {thrust::raw_pointer_cast(scan_.data()), static_cast<std::int64_t>(queue_.size()),
            thrust::raw_pointer_cast(queue_.data()), thrust::raw_pointer_cast(offsets_.data()),
            thrust::raw_pointer_cast(columns_.data())};
  }

  thrust::device_vector<std::int64_t> offsets_;
  thrust::device_vector<Id> columns_;
  thrust::device_vector<std::int64_t> starts_;
  int ranks_;
  std::int64_t first_, n_local_;
  thrust::device_vector<std::int64_t> parents_;  // local block, global ids
  thrust::device_vector<std::uint8_t> found_;    // local block: found by the current level
  thrust::device_vector<Id> queue_;              // top-down frontier, local ids
  thrust::device_vector<std::int64_t> scan_, bounds_;
  thrust::device_vector<std::uint64_t> bitmap_;  // bottom-up frontier, every vertex
  thrust::device_vector<Candidate<Id>> candidates_, received_;
  device::ScratchPool pool_;
};

template <class Id>
std::unique_ptr<Device<Id>> make_device(const HostGraph<Id>& graph, std::int64_t num_vertices, double arcs_per_rank,
                                        std::string& too_big) {
  const double need =
      device_bytes(static_cast<double>(graph.offsets.size() - 1), static_cast<double>(graph.columns.size()),
                   static_cast<double>(num_vertices), static_cast<int>(sizeof(Id)),
                   static_cast<int>(graph.starts.size()) - 1, arcs_per_rank);
  if (need > device::free_bytes()) {
    too_big = device::too_big("gpu-hybrid", need, device::free_bytes());
    return nullptr;
  }
  too_big.clear();
  return std::make_unique<ThrustDevice<Id>>(graph, num_vertices);
}

template std::unique_ptr<Device<std::uint32_t>> make_device(const HostGraph<std::uint32_t>&, std::int64_t, double,
                                                            std::string&);
template std::unique_ptr<Device<std::int64_t>> make_device(const HostGraph<std::int64_t>&, std::int64_t, double,
                                                           std::string&);

}  // namespace g500::gpu_hybrid
