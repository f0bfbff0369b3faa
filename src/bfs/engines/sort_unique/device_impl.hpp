#pragma once
// The device half of sort-unique, written once with Thrust: device_cuda.cu builds it for CUDA
// (nvcc) and device_cpu.cpp for the CPU (g++, Thrust's OpenMP system). Only Thrust algorithms and
// device lambdas, no CUDA runtime calls (those are in ../device_system_impl.hpp).
#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

#include "bfs/engines/device_thrust.hpp"
#include "bfs/engines/sort_unique/device.hpp"

namespace g500::sort_unique {

double device_bytes(double n_local, double arcs, double n_all, int id_bytes) {
  // CSR; visited and seen flags (one byte a vertex); parents, frontier, degree scan; one level's
  // candidates (vertex and parent arrays, their row index, the packed copy, what is received).
  return 8 * (n_local + 1) + id_bytes * arcs + n_local + n_all + 3 * 8 * n_local +
         (2 * id_bytes + 8 + 2 * id_bytes + 2 * id_bytes) * arcs;
}

template <class Id>
class ThrustDevice final : public Device<Id> {
 public:
  ThrustDevice(const HostGraph<Id>& g, std::int64_t num_vertices)
      : offsets_(g.offsets.begin(), g.offsets.end()), columns_(g.columns.begin(), g.columns.end()),
        starts_(g.starts.begin(), g.starts.end()), ranks_(static_cast<int>(g.starts.size()) - 1),
        first_(g.starts[g.rank]), n_local_(g.starts[g.rank + 1] - g.starts[g.rank]), visited_(n_local_),
        seen_(num_vertices), parents_(n_local_) {}

  std::int64_t start(std::int64_t root) override {
    thrust::fill(visited_.begin(), visited_.end(), std::uint8_t{0});
    thrust::fill(seen_.begin(), seen_.end(), std::uint8_t{0});
    thrust::fill(parents_.begin(), parents_.end(), std::int64_t{-1});
    frontier_.clear();
    if (root >= first_ && root < first_ + n_local_) {
      const std::int64_t r = root - first_;
      visited_[r] = 1;
      seen_[root] = 1;
      parents_[r] = root;
      frontier_.push_back(r);
      return offsets_[r + 1] - offsets_[r];
    }
    return 0;
  }

  // Kept whole: its four steps are paper 003's level, in its order, each a Thrust call or two.
  LevelSizes expand(std::vector<std::int64_t>& send_counts) override {
    LevelSizes sizes;
    const std::int64_t f = static_cast<std::int64_t>(frontier_.size());
    // Step 1: the frontier's degrees and their exclusive prefix sum (scan_[f] is the total).
    scan_.resize(f + 1);
    const std::int64_t* off = thrust::raw_pointer_cast(offsets_.data());
    thrust::transform(frontier_.begin(), frontier_.end(), scan_.begin(),
                      [off] G500_HD(std::int64_t u) { return off[u + 1] - off[u]; });
    scan_[f] = 0;
    thrust::exclusive_scan(scan_.begin(), scan_.end(), scan_.begin());
    const std::int64_t m = scan_[f];
    sizes.expanded = m;
    // Step 2: one work item per frontier edge finds its frontier vertex by binary search on the
    // prefix sum and writes (neighbour, parent) to a contiguous array.
    vertex_.resize(m);
    parent_.resize(m);
    row_.resize(m);
    thrust::upper_bound(scan_.begin(), scan_.end(), thrust::counting_iterator<std::int64_t>(0),
                        thrust::counting_iterator<std::int64_t>(m), row_.begin());
    const std::int64_t* scan = thrust::raw_pointer_cast(scan_.data());
    const std::int64_t* front = thrust::raw_pointer_cast(frontier_.data());
    const std::int64_t* row = thrust::raw_pointer_cast(row_.data());
    const Id* col = thrust::raw_pointer_cast(columns_.data());
    Id* vertex = thrust::raw_pointer_cast(vertex_.data());
    Id* parent = thrust::raw_pointer_cast(parent_.data());
    const std::int64_t first = first_;
    thrust::for_each(thrust::counting_iterator<std::int64_t>(0), thrust::counting_iterator<std::int64_t>(m),
                     [=] G500_HD(std::int64_t k) {
                       const std::int64_t i = row[k] - 1;
                       const std::int64_t u = front[i];
                       vertex[k] = col[off[u] + (k - scan[i])];
                       parent[k] = static_cast<Id>(u + first);
                     });
    // Step 3: sort + unique, then drop what this rank knows is visited or has already sent.
    thrust::sort_by_key(vertex_.begin(), vertex_.end(), parent_.begin());
    const auto ends = thrust::unique_by_key(vertex_.begin(), vertex_.end(), parent_.begin());
    const std::int64_t u = ends.first - vertex_.begin();
    sizes.unique = u;
    candidates_.resize(u);
    std::uint8_t* seen = thrust::raw_pointer_cast(seen_.data());
    const auto pairs = thrust::make_zip_iterator(thrust::make_tuple(vertex_.begin(), parent_.begin()));
    const auto packed = thrust::make_transform_iterator(pairs, [] G500_HD(const thrust::tuple<Id, Id>& t) {
      return Candidate<Id>{thrust::get<0>(t), thrust::get<1>(t)};
    });
    const auto kept = thrust::copy_if(packed, packed + u, candidates_.begin(),
                                      [seen] G500_HD(const Candidate<Id>& c) { return seen[c.vertex] == 0; });
    const std::int64_t k = kept - candidates_.begin();
    candidates_.resize(k);
    sizes.unvisited = k;
    // Candidates are unique, so marking them needs no atomics.
    thrust::for_each(candidates_.begin(), candidates_.end(), [seen] G500_HD(const Candidate<Id>& c) { seen[c.vertex] = 1; });
    // Step 4's first half: sorted by vertex means grouped by owner; each owner's run starts at the
    // first candidate not below its block's start.
    const auto vertices = thrust::make_transform_iterator(candidates_.begin(),
                                                          [] G500_HD(const Candidate<Id>& c) { return static_cast<std::int64_t>(c.vertex); });
    bounds_.resize(ranks_ + 1);
    thrust::lower_bound(vertices, vertices + k, starts_.begin(), starts_.end(), bounds_.begin());
    const thrust::host_vector<std::int64_t> b = bounds_;
    send_counts.assign(ranks_, 0);
    for (int r = 0; r < ranks_; ++r) send_counts[r] = static_cast<std::int64_t>((r + 1 < ranks_ ? b[r + 1] : k) - b[r]);
    return sizes;
  }

  const Candidate<Id>* candidates() const override { return thrust::raw_pointer_cast(candidates_.data()); }
  void candidates_to_host(Candidate<Id>* out, std::int64_t first, std::int64_t count) const override {
    thrust::copy(candidates_.begin() + first, candidates_.begin() + first + count, out);
  }

  Candidate<Id>* receive_buffer(std::int64_t n) override {
    received_.resize(n);
    return thrust::raw_pointer_cast(received_.data());
  }
  void receive_staged(std::int64_t own_first, std::int64_t own_count, const Candidate<Id>* in, std::int64_t n) override {
    received_.resize(own_count + n);
    thrust::copy(candidates_.begin() + own_first, candidates_.begin() + own_first + own_count, received_.begin());
    thrust::copy(in, in + n, received_.begin() + own_count);
  }

  Visited visit(std::int64_t n) override {
    received_.resize(n);
    // Several ranks may offer one vertex: sort and keep one, so each joins the tree once.
    thrust::sort(received_.begin(), received_.end(),
                 [] G500_HD(const Candidate<Id>& a, const Candidate<Id>& b) { return a.vertex < b.vertex; });
    const auto end = thrust::unique(received_.begin(), received_.end(),
                                    [] G500_HD(const Candidate<Id>& a, const Candidate<Id>& b) { return a.vertex == b.vertex; });
    const std::uint8_t* visited = thrust::raw_pointer_cast(visited_.data());
    const std::int64_t first = first_;
    next_.resize(end - received_.begin());
    const auto locals = thrust::make_transform_iterator(
        received_.begin(), [first] G500_HD(const Candidate<Id>& c) { return static_cast<std::int64_t>(c.vertex) - first; });
    const auto kept = thrust::copy_if(locals, locals + (end - received_.begin()), received_.begin(), next_.begin(),
                                      [visited, first] G500_HD(const Candidate<Id>& c) { return visited[c.vertex - first] == 0; });
    next_.resize(kept - next_.begin());
    // The parents: the received entry each kept vertex came from (same order as next_).
    std::uint8_t* vis = thrust::raw_pointer_cast(visited_.data());
    std::uint8_t* seen = thrust::raw_pointer_cast(seen_.data());
    std::int64_t* parents = thrust::raw_pointer_cast(parents_.data());
    thrust::for_each(received_.begin(), end, [vis, seen, parents, first] G500_HD(const Candidate<Id>& c) {
      const std::int64_t v = static_cast<std::int64_t>(c.vertex) - first;
      if (vis[v] == 0) {
        vis[v] = 1;
        seen[c.vertex] = 1;
        parents[v] = static_cast<std::int64_t>(c.parent);
      }
    });
    const std::int64_t* off = thrust::raw_pointer_cast(offsets_.data());
    Visited found;
    found.discovered = static_cast<std::int64_t>(next_.size());
    found.discovered_edges = thrust::transform_reduce(
        next_.begin(), next_.end(), [off] G500_HD(std::int64_t v) { return off[v + 1] - off[v]; }, std::int64_t{0},
        thrust::plus<std::int64_t>());
    frontier_.swap(next_);
    return found;
  }

  void parents_to_host(std::span<std::int64_t> out) const override {
    thrust::copy(parents_.begin(), parents_.end(), out.begin());
  }

 private:
  thrust::device_vector<std::int64_t> offsets_;
  thrust::device_vector<Id> columns_;
  thrust::device_vector<std::int64_t> starts_;
  int ranks_;
  std::int64_t first_, n_local_;
  thrust::device_vector<std::uint8_t> visited_;  // local block
  thrust::device_vector<std::uint8_t> seen_;     // all vertices: known visited here, or sent before
  thrust::device_vector<std::int64_t> parents_;  // local block
  thrust::device_vector<std::int64_t> frontier_, next_, scan_, row_, bounds_;
  thrust::device_vector<Id> vertex_, parent_;
  thrust::device_vector<Candidate<Id>> candidates_, received_;
};

template <class Id>
std::unique_ptr<Device<Id>> make_device(const HostGraph<Id>& graph, std::int64_t num_vertices,
                                        std::string& device_memory_error) {
  const double need = device_bytes(static_cast<double>(graph.offsets.size() - 1), static_cast<double>(graph.columns.size()),
                                   static_cast<double>(num_vertices), static_cast<int>(sizeof(Id)));
  if (need > device::free_bytes()) {
    device_memory_error = device::too_big("sort-unique", need, device::free_bytes());
    return nullptr;
  }
  device_memory_error.clear();
  return std::make_unique<ThrustDevice<Id>>(graph, num_vertices);
}

template std::unique_ptr<Device<std::uint32_t>> make_device(const HostGraph<std::uint32_t>&, std::int64_t, std::string&);
template std::unique_ptr<Device<std::int64_t>> make_device(const HostGraph<std::int64_t>&, std::int64_t, std::string&);

}  // namespace g500::sort_unique
