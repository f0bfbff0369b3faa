#include "bfs/engines/sort_unique/sort_unique.hpp"

#include "bfs/engines/device_rank.hpp"
#include "bfs/id_width.hpp"
#include "bfs/level_profiler.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "graph/csr_1d.hpp"
#include "core/memory.hpp"

namespace g500 {
namespace {

// Device memory a rank's GPU needs (make_device checks it against the GPU's free memory, `g500
// plan --gpu-memory` against the GPU's size).
double sort_unique_device_bytes(const GraphShape& shape, const BfsOptions& options) {
  const double n_local = shape.vertices / shape.ranks + 64, arcs = 2 * shape.tuples / shape.ranks + 1;
  return sort_unique::device_bytes(n_local, arcs, shape.vertices, id_bytes(options));
}

// Host memory, counted as if the build's buffers and the search's state were held together.
EngineMemory sort_unique_memory_bytes(const GraphShape& shape, const BfsOptions& options) {
  const int id = id_bytes(options);
  const double arcs = 2 * shape.tuples / shape.ranks + 1;
  // Kernel 1 builds the CSR on the host (then it is uploaded and freed), and the staging buffers
  // hold one level's candidates each way. The CPU build's device memory is host memory too; the
  // CUDA build's is the GPU's, which make_device checks against the GPU's free memory.
  double bytes = csr_1d_build_bytes(shape.vertices, shape.tuples, shape.ranks, id) + 2 * 2 * id * arcs;
  if (device::memory_is_host() && !options.device.planned_gpu) bytes += sort_unique_device_bytes(shape, options);
  return EngineMemory::of(bytes, bytes);
}

}  // namespace

EngineSpec sort_unique_engine() {
  return {.name = "sort-unique",
          .help =
              "GPU-style top-down BFS: frontier expanded by prefix sum and binary search, sort + unique, "
              "exchange by owner (paper 003; Thrust: CUDA in g500-cuda, OpenMP on the CPU)",
          .make = [](const EngineContext& c) { return make_for_id_width<SortUnique>(c); },
          .memory_bytes = &sort_unique_memory_bytes,
          .thread_level = mpi::ThreadLevel::funneled,
          .option_groups = {&kDeviceGroup, &kIdsGroup},
          .device_bytes = &sort_unique_device_bytes};
}

template <class Column>
SortUnique<Column>::SortUnique(const EngineContext& context)
    : options_(context.options), comm_(context.comm), part_(context.part) {
  staged_ = device::open_device(comm_, options_.device.staging, "sort-unique");
}

template <class Column>
void SortUnique<Column>::build(const EdgeSource& source) {
  const std::vector<std::int64_t> starts = device::block_starts(part_);
  std::string too_big;
  {
    // Kernel 1 on the host, then the rows go to the device and the host copy is freed.
    Csr1D<Column> csr = build_csr_1d<Column>(source, part_, comm_);
    const sort_unique::HostGraph<Column> graph = device::host_graph(csr, starts, part_.rank());
    device_ = sort_unique::make_device<Column>(graph, part_.num_vertices(), too_big);
  }
  device::check_uploaded(comm_, too_big, "sort-unique");
}

template <class Column>
void SortUnique<Column>::search(vertex_t root, std::span<vertex_t> parents, SearchProfile* profile) {
  check_parents(parents, part_, "sort-unique");
  std::int64_t frontier_edges = comm_.allreduce<std::int64_t>(device_->start(root), mpi::Op::sum);
  std::int64_t frontier_vertices = 1;
  LevelProfiler profiler(comm_, profile);
  mpi::Counts send_counts;
  for (int level = 0; frontier_vertices > 0; ++level) {
    profiler.begin_level();
    Timer step;
    const sort_unique::LevelSizes sizes = device_->expand(send_counts);
    profiler.add_step("1-3 expand, sort-unique", step.seconds());
    mpi::traffic().add_logical("sort_unique.expanded", sizes.expanded);
    mpi::traffic().add_logical("sort_unique.after_unique", sizes.unique);
    mpi::traffic().add_logical("sort_unique.after_visited", sizes.unvisited);
    // Step 4: the candidates to their owners.
    step.restart();
    std::int64_t received = 0;
    if (staged_) {
      received = exchange_staged(sizes.unvisited, send_counts);
    } else {
      const mpi::Counts recv_counts = comm_.alltoall_counts(send_counts);
      for (int c : recv_counts) received += c;
      Candidate* into = device_->receive_buffer(received);
      comm_.alltoallv_raw<Candidate>(device_->candidates(), send_counts, into, recv_counts);
    }
    const double exchanged = step.seconds();
    profiler.add_exchange(exchanged);
    profiler.add_step("4 exchange", exchanged);
    step.restart();
    const sort_unique::Visited found_here = device_->visit(received);
    profiler.add_step("4 update parents, next frontier", step.seconds());
    StepCounts counts;
    counts.discovered = found_here.discovered;
    counts.discovered_edges = found_here.discovered_edges;
    counts.edges_examined = sizes.expanded;
    const StepCounts found = profiler.end_level(level, Direction::top_down, frontier_vertices, frontier_edges, counts);
    frontier_vertices = found.discovered;
    frontier_edges = found.discovered_edges;
  }
  device_->parents_to_host(parents);
}

// Staged through host memory: only the candidates other ranks own cross to the host and back;
// this rank's own stay on the device (with one rank, nothing leaves it).
template <class Column>
std::int64_t SortUnique<Column>::exchange_staged(std::int64_t candidates, mpi::Counts& send_counts) {
  const int me = comm_.rank();
  std::int64_t own_first = 0;
  for (int r = 0; r < me; ++r) own_first += send_counts[r];
  const std::int64_t own_count = send_counts[me];
  send_counts[me] = 0;
  host_send_.resize(candidates - own_count);
  device_->candidates_to_host(host_send_.data(), 0, own_first);
  device_->candidates_to_host(host_send_.data() + own_first, own_first + own_count, candidates - own_first - own_count);
  comm_.alltoallv_into<Candidate>(host_send_, send_counts, host_received_);
  const std::int64_t arrived = static_cast<std::int64_t>(host_received_.size());
  device_->receive_staged(own_first, own_count, host_received_.data(), arrived);
  return own_count + arrived;
}

template class SortUnique<std::uint32_t>;
template class SortUnique<std::int64_t>;

}  // namespace g500
