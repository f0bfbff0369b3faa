#include "harness/benchmark.hpp"

#include <omp.h>

#include <bit>
#include <memory>
#include <optional>

#include "bfs/registry.hpp"
#include "mpi/node_memory.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "generator/generate_slice.hpp"
#include "generator/kronecker_source.hpp"
#include "graph/vertex_count.hpp"
#include "harness/kernel_loops.hpp"
#include "harness/memory_check.hpp"
#include "harness/progress.hpp"
#include "harness/resolve.hpp"
#include "harness/roots.hpp"
#include "harness/traffic_summary.hpp"
#include "io/edge_file.hpp"
#include "io/graph_file.hpp"
#include "io/search_output.hpp"
#include "mpi/node_topology.hpp"
#include "partition/partition_1d.hpp"
#include "sssp/sssp_spec.hpp"

namespace g500 {
namespace {

void check_rank_count(vertex_t num_vertices, int num_ranks) {
  if (num_ranks > num_vertices) {
    throw UserError("more MPI ranks (" + std::to_string(num_ranks) + ") than vertices (" +
                    std::to_string(num_vertices) + "): use a larger --scale or fewer ranks");
  }
}

// The edge source a run reads: the generator, or a graph file (opened, and checked, by one pass
// over it). `shown` gets the statistics block's SCALE and edgefactor for a graph file.
struct OpenedSource {
  std::unique_ptr<EdgeSource> source;
  double vertices = 0;      // N as the source states it (kernel 1 finds it again from the tuples)
  std::string what;         // "SCALE S" or the file's name, for messages
  bool generated = false;
};

OpenedSource open_edge_source(const RunOptions& options, const mpi::Comm& comm, const Progress& progress,
                              RunOptions& shown) {
  OpenedSource opened;
  if (options.input_path.empty()) {
    const KroneckerGenerator generator(options.scale, options.edgefactor, options.seed);
    check_rank_count(generator.num_vertices(), comm.size());
    opened.source = std::make_unique<KroneckerSource>(generator, comm.rank(), comm.size());
    opened.vertices = static_cast<double>(generator.num_vertices());
    opened.what = "SCALE " + std::to_string(options.scale);
    opened.generated = true;
    return opened;
  }
  const GraphFormat format = graph_format(options.input_path, options.input_format);
  progress.say("reading %s '%s'", to_string(format), options.input_path.c_str());
  std::unique_ptr<FileEdgeSource> file =
      FileEdgeSource::open(comm, options.input_path, format, options.relabel, options.input_weights);
  check_rank_count(file->num_vertices(), comm.size());
  if (options.kernels.sssp && !file->has_weights()) {
    throw UserError("--kernels sssp needs edge weights, and '" + options.input_path + "' has none");
  }
  // The statistics block's SCALE and edgefactor for a graph of N vertices and M tuples.
  shown.scale = std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(file->num_vertices() - 1))));
  shown.edgefactor = static_cast<int>(std::max<std::int64_t>(1, file->global_tuples() >> shown.scale));
  opened.vertices = static_cast<double>(file->num_vertices());
  opened.what = "'" + options.input_path + "'";
  opened.source = std::move(file);
  return opened;
}

// The run's options settled for its size and the nodes' memory (harness/resolve.hpp). Collective.
ResolvedRun settle(const mpi::Comm& comm, double vertices, double tuples, const RunOptions& options) {
  return resolve(options, ProblemSize{vertices, tuples, comm.size()},
                 [&](double bytes) { return mpi::node_memory_fits(comm, estimate_to_bytes(bytes)); });
}

// A line for each choice the memory changed, once the run is known to fit.
void say_what_memory_changed(const Progress& progress, const ResolvedRun& r) {
  const RunOptions& o = r.options;
  if (o.kernels.bfs && o.bfs.engine != r.rule_engine) {
    progress.say("--bfs auto: %s, as %s does not fit the memory", o.bfs.engine.c_str(), r.rule_engine.c_str());
  }
  if (o.kernels.validation_batch < r.batch_asked) {
    progress.say("validating %d searches at a time: %d do not fit the memory", o.kernels.validation_batch,
                 r.batch_asked);
  }
}

// Kernel 1's products: the common partition and each kernel's graph.
struct Graphs {
  std::optional<Partition1D> part;
  std::unique_ptr<BfsEngine> bfs;
  std::unique_ptr<SsspEngine> sssp;
};

// Kernel 3's weighted graph (timed by the caller as part of kernel 1).
void build_sssp_graph(const RunOptions& options, const EdgeSource& source, const mpi::Comm& comm, Graphs& graphs) {
  graphs.sssp = sssp_engine().make(SsspContext{comm, *graphs.part, options.kernels.sssp_options});
  graphs.sssp->build(source);
}

// Kernel 1 (timed by the caller): the vertex count from the edges, the common partition, and the
// graph of the first kernel to run (the BFS graph, or with --kernels sssp the weighted one; when
// both run, the weighted graph is built after kernel 2, in the memory the BFS graph frees). Returns N.
vertex_t build_graphs(const RunOptions& options, const EngineSpec& spec, const EdgeSource& source,
                      const mpi::Comm& comm, Graphs& graphs) {
  const KernelChoice& kernels = options.kernels;
  // A 1D engine's first pass (arcs per block of rows) rides on the vertex count's.
  ArcSketch sketch;
  ArcSketch* arcs_by_word = kernels.bfs && spec.reads_arc_sketch ? &sketch : nullptr;
  const vertex_t n = count_vertices(source, comm, arcs_by_word);
  check_rank_count(n, comm.size());
  graphs.part.emplace(n, comm.size(), comm.rank());
  if (kernels.bfs) {
    graphs.bfs = spec.make(EngineContext{comm, *graphs.part, options.bfs, arcs_by_word});
    graphs.bfs->build(source);
  } else {
    build_sssp_graph(options, source, comm, graphs);
  }
  return n;
}

// The roots: those the user named (--root, --roots-file), else --roots drawn by the seed among the
// vertices with an edge. Collective.
std::vector<vertex_t> pick_roots(const RunOptions& options, const EdgeSource& source, const Partition1D& part,
                                 const mpi::Comm& comm) {
  std::vector<vertex_t> root_ids = options.root_ids;
  if (!options.roots_file.empty()) {
    const std::vector<vertex_t> listed = read_roots_file(options.roots_file, comm);
    root_ids.insert(root_ids.end(), listed.begin(), listed.end());
  }
  const Bitmap connected = connected_vertices(source, part, comm);
  std::vector<vertex_t> roots = root_ids.empty() ? choose_roots(connected, part, comm, options.roots, options.seed)
                                                 : given_roots(root_ids, source, connected, part, comm);
  if (roots.empty()) throw UserError("no vertex has an edge other than a self-loop: there is nothing to search");
  return roots;
}

// The rows' compressed size over all ranks, when the engine keeps 1D rows (untimed). Collective.
void report_row_codes(const BfsEngine& engine, const mpi::Comm& comm, const Progress& progress, RunRecord& run) {
  const std::optional<RowCodeSize> mine = engine.row_codes();
  if (!mine) {
    progress.say("--measure-row-codes: this engine keeps no 1D rows to measure");
    return;
  }
  RowCodeSize all{comm.allreduce(mine->entries, mpi::Op::sum), comm.allreduce(mine->bytes, mpi::Op::sum)};
  progress.say("rows stored as byte-coded gaps would take %.3g GB: %.3f bytes an entry, %.3f bytes an input tuple",
               static_cast<double>(all.bytes) / 1e9, all.entries ? static_cast<double>(all.bytes) / all.entries : 0.0,
               static_cast<double>(all.bytes) / run.edge_tuples);
  run.row_codes = all;
}

// Each rank's peak so far, and the line that says it.
void record_peak(const mpi::Comm& comm, const Progress& progress, RunRecord& run) {
  run.peak_memory = comm.allgather(peak_resident_bytes());
  std::int64_t peak_total = 0;
  for (std::int64_t b : run.peak_memory) peak_total += b;
  progress.say("peak memory, all ranks: %.3g GB, %.1f bytes per input tuple (estimate %.3g GB per rank)",
               static_cast<double>(peak_total) / 1e9, static_cast<double>(peak_total) / run.edge_tuples,
               static_cast<double>(run.memory_estimate_per_rank) / 1e9);
}

// The run's edge source opened, its options settled (harness/resolve.hpp) and its memory checked,
// before anything is allocated; the record's description of the run filled in. Collective.
OpenedSource open_and_settle(const RunOptions& asked, const mpi::Comm& comm, const Progress& progress, RunRecord& run) {
  run.options = asked;
  if (asked.comm_matrix) check_comm_matrix_fits(comm.size());
  OpenedSource opened = open_edge_source(asked, comm, progress, run.options);
  run.edge_tuples = opened.source->global_tuples();
  const double tuples = static_cast<double>(run.edge_tuples);
  const ResolvedRun resolved = settle(comm, opened.vertices, tuples, run.options);
  run.options = resolved.options;
  run.memory_estimate_per_rank = estimate_graph_bytes(opened.vertices, tuples, comm.size(), run.options.bfs,
                                                      run.options.kernels, run.options.input_path.empty());
  check_memory(comm, run.memory_estimate_per_rank, opened.what);
  say_what_memory_changed(progress, resolved);
  run.num_mpi_processes = comm.size();
  run.threads_per_process = omp_get_max_threads();
  run.validated = !run.options.skip_validation;
  run.edge_source = opened.source->describe();
  return opened;
}

// The tuples are never stored: every stage makes (or reads) its rounds again. The generation
// time is that of making (or reading) the whole list once. Collective.
void time_generation(const OpenedSource& opened, const mpi::Comm& comm, const Progress& progress, RunRecord& run) {
  if (opened.generated) {
    progress.say("generating SCALE %d, edgefactor %d (%lld tuples) on %d ranks x %d threads", run.options.scale,
                 run.options.edgefactor, static_cast<long long>(run.edge_tuples), comm.size(), run.threads_per_process);
  }
  run.generation_seconds = timed_collective(comm, [&] {
    const PhaseProgress phase(progress, opened.generated ? "generation" : "reading");
    for_each_round(*opened.source, comm, exchange::kBuildRound, [](std::int64_t, std::span<const Edge>) {});
  });
}

// Kernel 1, timed: the first kernel's graph (graphs.bfs, or with --kernels sssp alone graphs.sssp),
// its layout, traffic and the peak after it. Collective.
void run_kernel_1(const EdgeSource& source, const mpi::Comm& comm, const Progress& progress, Graphs& graphs,
                  RunRecord& run, PhaseTraffic& traffic) {
  const RunOptions& options = run.options;
  const EngineSpec& spec = find_engine(options.bfs.engine);
  progress.say("kernel 1: building the %s graph", options.kernels.bfs ? spec.name.c_str() : "weighted SSSP");
  const mpi::TrafficSnapshot before = mpi::traffic().snapshot();
  run.construction_seconds = timed_collective(comm, [&] {
    const PhaseProgress phase(progress, "kernel 1");
    run.vertices = build_graphs(options, spec, source, comm, graphs);
  });
  if (graphs.bfs) run.layout = graphs.bfs->layout();
  if (!run.layout.empty()) progress.say("kernel 1: the graph is laid out on a %s", run.layout.c_str());
  traffic.construction = mpi::traffic().snapshot().since(before);
  run.peak_memory_after_construction = comm.allgather(peak_resident_bytes());
  if (options.measure_row_codes && graphs.bfs) report_row_codes(*graphs.bfs, comm, progress, run);
}

// Kernel 1's second graph, when both kernels run: the weighted one, timed into kernel 1, built once
// kernel 2 is done and the BFS graph gone, so that the run's peak is the larger graph's, not both
// together. Collective.
void build_sssp_after_bfs(const EdgeSource& source, const mpi::Comm& comm, const Progress& progress, Graphs& graphs,
                          RunRecord& run, PhaseTraffic& traffic) {
  graphs.bfs.reset();
  progress.say("kernel 1: building the weighted SSSP graph (after kernel 2, in the BFS graph's memory)");
  const mpi::TrafficSnapshot before = mpi::traffic().snapshot();
  run.sssp_construction_seconds = timed_collective(comm, [&] {
    const PhaseProgress phase(progress, "kernel 1, SSSP graph");
    build_sssp_graph(run.options, source, comm, graphs);
  });
  run.construction_seconds += run.sssp_construction_seconds;
  traffic.construction.add(mpi::traffic().snapshot().since(before));
}

}  // namespace

// The data flow of docs/architecture.md: edge source -> settle and check memory -> kernel 1 ->
// roots -> kernel 2 and kernel 3, each a timed, validated loop -> traffic and peaks for the report.
RunRecord run_benchmark(const RunOptions& options, const mpi::Comm& comm) {
  io::PendingOutputs outputs(comm);
  RunRecord run = run_benchmark(options, comm, outputs);
  outputs.commit();
  return run;
}

RunRecord run_benchmark(const RunOptions& asked, const mpi::Comm& comm, io::PendingOutputs& outputs) {
  const Progress progress(comm.is_root() && !asked.quiet);
  RunRecord run;
  const OpenedSource opened = open_and_settle(asked, comm, progress, run);
  const EdgeSource& source = *opened.source;
  const RunOptions& options = run.options;
  // Which ranks share a node, for the traffic between and within nodes (--ranks-per-node pretends).
  const mpi::NodeTopology nodes(comm, options.bfs.node.ranks_per_node);
  mpi::traffic().set_nodes(nodes.node_of_rank(), comm.rank());
  time_generation(opened, comm, progress, run);

  PhaseTraffic traffic;
  Graphs graphs;
  run_kernel_1(source, comm, progress, graphs, run, traffic);
  const Partition1D& part = *graphs.part;
  const std::vector<vertex_t> roots = pick_roots(options, source, part, comm);
  big_vector<vertex_t> parents(part.local_count());
  mpi::TrafficTally validation_traffic;
  std::optional<SearchOutput> output;
  if (!options.output_path.empty()) output.emplace(comm, options.output_path, options.output_binary, source);
  const KernelRun kernel_run{comm,    options, progress, roots, validation_traffic, source, part,
                             parents, output,  options.kernels.validation_batch, run.peak_memory_before_validation};
  std::vector<std::int64_t> search_peer_bytes;  // kernel 2's, for --comm-matrix
  if (graphs.bfs) run.roots = run_bfs_kernel(kernel_run, *graphs.bfs, traffic, search_peer_bytes, run.bfs_energy);
  if (options.kernels.sssp && !graphs.sssp) build_sssp_after_bfs(source, comm, progress, graphs, run, traffic);
  if (graphs.sssp) run.sssp_roots = run_sssp_kernel(kernel_run, *graphs.sssp, traffic, run.sssp_energy);
  if (output) output->close(outputs);

  traffic.validation = validation_traffic.counts();
  if (search_peer_bytes.empty()) search_peer_bytes.assign(comm.size(), 0);
  run.traffic = gather_traffic(comm, traffic, search_peer_bytes, options.comm_matrix);
  run.traffic.nodes = nodes.num_nodes();
  if (options.kernels.bfs) progress.say("%s", traffic_line(run.traffic, roots.size()).c_str());
  record_peak(comm, progress, run);
  return run;
}

void run_generate(const GenerateOptions& options, const mpi::Comm& comm) {
  const Progress progress(comm.is_root() && !options.quiet);
  const KroneckerGenerator generator(options.scale, options.edgefactor, options.seed);
  const bool with_weights = !options.weights_output.empty();
  check_memory(comm, estimate_generate_bytes(options.scale, options.edgefactor, comm.size(), with_weights),
               "generating SCALE " + std::to_string(options.scale));
  progress.say("generating SCALE %d, edgefactor %d", options.scale, options.edgefactor);
  const EdgeSlice slice = generate_slice(generator, comm, with_weights);
  progress.say("writing %s", options.output.c_str());
  write_edge_files(options.output, options.weights_output, slice, comm);
}

}  // namespace g500
