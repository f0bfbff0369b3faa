#include "bfs/engines/gpu_hybrid/gpu_hybrid.hpp"

#include <algorithm>

#include "bfs/direction_policy.hpp"
#include "bfs/engines/device_rank.hpp"
#include "bfs/id_width.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "graph/csr_1d.hpp"

namespace g500 {
namespace {

// Host memory: kernel 1 builds the rows on the host (uploaded, then freed); the staging buffers
// hold a top-down round's candidates each way and the whole frontier bitmap. The CPU build's
// device memory is host memory too; the CUDA build's is the GPU's (gpu_hybrid_device_bytes),
// which make_device checks against the GPU's free memory and `g500 plan --gpu-memory` against the
// GPU's size.
double gpu_hybrid_device_bytes(const GraphShape& shape, const BfsOptions& options) {
  const double n_local = shape.vertices / shape.ranks + 64, arcs = 2 * shape.tuples / shape.ranks + 1;
  return gpu_hybrid::device_bytes(n_local, arcs, shape.vertices, id_bytes(options), shape.ranks, arcs);
}

EngineMemory gpu_hybrid_memory_bytes(const GraphShape& shape, const BfsOptions& options) {
  const int id = id_bytes(options);
  const double n_local = shape.vertices / shape.ranks + 64, arcs = 2 * shape.tuples / shape.ranks + 1;
  const double round = shape.ranks > 1 ? std::min(gpu_hybrid::top_down_round(arcs), arcs) : 0;
  const double staging = 2 * 2 * id * round + (shape.ranks > 1 ? shape.vertices / 8 : 0);
  const double device =
      device::memory_is_host() && !options.device.planned_gpu ? gpu_hybrid_device_bytes(shape, options) : 0;
  // The upload copies the host's rows while they are still held.
  const double host_rows = 8 * (n_local + 1) + id * arcs;
  const double build = std::max(csr_1d_build_bytes(shape.vertices, shape.tuples, shape.ranks, id), host_rows + device);
  EngineMemory need = EngineMemory::of(build, 0);
  if (device > 0) need.hold("device memory, here host memory: graph and search state", device);
  need.hold("staging: a top-down round's offers each way, the frontier bitmap", staging);
  return need;
}

}  // namespace

EngineSpec gpu_hybrid_engine() {
  return {.name = "gpu-hybrid",
          .help =
              "direction-optimizing BFS on the device: top-down by edge-parallel expansion, bottom-up over "
              "unreached rows against a frontier bitmap (Thrust: CUDA in g500-cuda, OpenMP on the CPU)",
          .make = [](const EngineContext& c) { return make_for_id_width<GpuHybrid>(c); },
          .memory_bytes = &gpu_hybrid_memory_bytes,
          .thread_level = mpi::ThreadLevel::funneled,
          .option_groups = {&kDirectionGroup, &kDeviceGroup, &kIdsGroup},
          .device_bytes = &gpu_hybrid_device_bytes};
}

template <class Column>
GpuHybrid<Column>::GpuHybrid(const EngineContext& context)
    : options_(context.options),
      comm_(context.comm),
      part_(context.part),
      staged_(device::open_device(context.comm, context.options.device.staging, "gpu-hybrid")) {}

template <class Column>
void GpuHybrid<Column>::build(const EdgeSource& source) {
  const std::vector<std::int64_t> starts = device::block_starts(part_);
  std::string too_big;
  {
    // Kernel 1 on the host, then the rows go to the device and the host copy is freed.
    Csr1D<Column> csr = build_csr_1d<Column>(source, part_, comm_);
    global_entries_ = comm_.allreduce<edge_count_t>(csr.local_entries(), mpi::Op::sum);
    const gpu_hybrid::HostGraph<Column> graph = device::host_graph(csr, starts, part_.rank());
    device_ = gpu_hybrid::make_device<Column>(graph, part_.num_vertices(), mean_arcs(), too_big);
  }
  device::check_uploaded(comm_, too_big, "gpu-hybrid");
}

template <class Column>
void GpuHybrid<Column>::search(vertex_t root, std::span<vertex_t> parents, SearchProfile* profile) {
  check_parents(parents, part_, "gpu-hybrid");
  DirectionPolicy policy(options_.direction, part_.num_vertices(), global_entries_);
  policy.start(comm_.allreduce<std::int64_t>(device_->start(root), mpi::Op::sum));
  LevelProfiler profiler(comm_, profile);
  for (int level = 0; !policy.done(); ++level) {
    profiler.begin_level();
    const Direction direction = policy.choose();
    const StepCounts step = direction == Direction::top_down ? top_down_step(profiler) : bottom_up_step(profiler);
    policy.end_level(profiler, level, direction, step);
  }
  device_->parents_to_host(parents);
}

// Rounds of at most top_down_round() frontier edges (or the tests' exchange_round); every rank
// runs as many as the busiest (one agreement a level), and with one rank there is nothing to
// exchange.
template <class Column>
StepCounts GpuHybrid<Column>::top_down_step(LevelProfiler& profiler) {
  Timer step;
  const std::int64_t edges = device_->begin_top_down();
  profiler.add_step("frontier queue", step.seconds());
  const std::int64_t round = options_.exchange_round > 0
                                 ? options_.exchange_round
                                 : static_cast<std::int64_t>(gpu_hybrid::top_down_round(mean_arcs()));
  const std::int64_t rounds =
      comm_.size() == 1 ? 1 : comm_.allreduce<std::int64_t>((edges + round - 1) / round, mpi::Op::max);
  mpi::Counts send_counts;
  double expanding = 0, exchanging = 0;
  for (std::int64_t r = 0; r < rounds; ++r) {
    step.restart();
    const std::int64_t first = std::min(edges, r * round),
                       last = comm_.size() == 1 ? edges : std::min(edges, first + round);
    const std::int64_t candidates = device_->expand(first, last, send_counts);
    expanding += step.seconds();
    if (comm_.size() == 1) break;
    step.restart();
    exchange_candidates(candidates, send_counts);
    exchanging += step.seconds();
  }
  profiler.add_step("top-down expand, claim", expanding);
  profiler.add_step("top-down exchange, claim", exchanging);
  profiler.add_exchange(exchanging);
  step.restart();
  const gpu_hybrid::Found found = device_->end_level();
  profiler.add_step("count found", step.seconds());
  StepCounts counts;
  counts.discovered = found.discovered;
  counts.discovered_edges = found.discovered_edges;
  counts.edges_examined = edges;
  return counts;
}

template <class Column>
void GpuHybrid<Column>::exchange_candidates(std::int64_t candidates, mpi::Counts& send_counts) {
  if (staged_) {
    host_send_.resize(static_cast<std::size_t>(candidates));
    device_->candidates_to_host(host_send_.data(), candidates);
    comm_.alltoallv_into<Candidate>(host_send_, send_counts, host_received_);
    device_->receive_from_host(host_received_.data(), static_cast<std::int64_t>(host_received_.size()));
    device_->claim_received(static_cast<std::int64_t>(host_received_.size()));
    return;
  }
  const mpi::Counts recv_counts = comm_.alltoall_counts(send_counts);
  std::int64_t received = 0;
  for (std::int64_t c : recv_counts) received += c;
  Candidate* into = device_->receive_buffer(received);
  comm_.alltoallv_raw<Candidate>(device_->candidates(), send_counts, into, recv_counts);
  device_->claim_received(received);
}

template <class Column>
StepCounts GpuHybrid<Column>::bottom_up_step(LevelProfiler& profiler) {
  Timer step;
  std::uint64_t* frontier = device_->begin_bottom_up();
  profiler.add_step("frontier bitmap", step.seconds());
  step.restart();
  if (comm_.size() > 1) {  // every rank's words of the bitmap to every rank
    const mpi::Counts counts = part_.word_counts(), displs = part_.word_displs();
    if (staged_) {
      host_frontier_.resize(static_cast<std::size_t>(displs.back() + counts.back()));
      const int me = comm_.rank();
      device_->frontier_words_to_host(host_frontier_.data() + displs[me], displs[me], counts[me]);
      comm_.allgatherv_inplace<std::uint64_t>(host_frontier_.data(), counts, displs);
      device_->frontier_from_host(host_frontier_.data(), static_cast<std::int64_t>(host_frontier_.size()));
    } else {
      comm_.allgatherv_inplace<std::uint64_t>(frontier, counts, displs);
    }
  }
  const double gathered = step.seconds();
  profiler.add_step("bottom-up allgather", gathered);
  profiler.add_exchange(gathered);
  step.restart();
  StepCounts counts;
  counts.edges_examined = device_->bottom_up();
  profiler.add_step("bottom-up scan", step.seconds());
  step.restart();
  const gpu_hybrid::Found found = device_->end_level();
  profiler.add_step("count found", step.seconds());
  counts.discovered = found.discovered;
  counts.discovered_edges = found.discovered_edges;
  return counts;
}

template class GpuHybrid<std::uint32_t>;
template class GpuHybrid<std::int64_t>;

}  // namespace g500
