#include "harness/benchmark.hpp"

#include <omp.h>

#include <bit>
#include <functional>
#include <memory>
#include <optional>

#include "bfs/registry.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "core/memory.hpp"
#include "generator/generate_slice.hpp"
#include "generator/kronecker_source.hpp"
#include "graph/vertex_count.hpp"
#include "harness/level_phases.hpp"
#include "harness/memory_check.hpp"
#include "harness/progress.hpp"
#include "harness/roots.hpp"
#include "io/edge_file.hpp"
#include "io/graph_file.hpp"
#include "io/search_output.hpp"
#include "mpi/node_topology.hpp"
#include "partition/partition_1d.hpp"
#include "sssp/delta_stepping.hpp"
#include "validate/bfs_validator.hpp"
#include "validate/reached_tuple_counter.hpp"
#include "validate/sssp_validator.hpp"

namespace g500 {
namespace {

void check_rank_count(vertex_t num_vertices, int num_ranks) {
  if (num_ranks > num_vertices) {
    throw UserError("more MPI ranks (" + std::to_string(num_ranks) + ") than vertices (" +
                    std::to_string(num_vertices) + "): use a larger --scale or fewer ranks");
  }
}

// Seconds of the slowest rank for a collective phase.
template <class Work>
double timed_collective(const mpi::Comm& comm, Work&& work) {
  comm.barrier();
  Timer timer;
  work();
  comm.barrier();
  return comm.allreduce(timer.seconds(), mpi::Op::max);
}

// How a kernel's searches are validated: `batch` searches per pass over the tuples. wait(root)
// keeps the search just ended for the batch's check; check(roots, names) validates the batch that
// ends with the search just ended (roots in order, this one last) and returns each one's nedge, or
// throws UserError naming the root and the rule that failed.
struct SearchCheck {
  int batch = 1;
  std::function<void(vertex_t)> wait;
  std::function<std::vector<std::int64_t>(const std::vector<vertex_t>&, const std::vector<std::string>&)> check;
};

std::string failed_search(const char* kernel, vertex_t root, const std::string& which, const ValidationResult& r) {
  return std::string(kernel) + "validation failed for root " + std::to_string(root) + " (" + which + "): rule " +
         std::to_string(r.rule) + ": " + r.message;
}

// The timed loop every kernel runs over the roots: each search timed between barriers, its
// traffic counted, then (outside the timing) `after` for the kernel's own bookkeeping and the
// validation, or with --skip-validation the edge count alone. A batch's shared pass over the
// tuples is timed once and its time split evenly over the batch's searches.
struct KernelLoop {
  const mpi::Comm& comm;
  const RunOptions& options;
  const Progress& progress;
  const std::vector<vertex_t>& roots;
  mpi::TrafficTally& validation_traffic;
  const EdgeSource& source;  // names roots as the graph does

  // emit(rec) runs last, after the validation (--output).
  // `counting`: the edge counts alone, for --skip-validation (its check never throws).
  template <class Search, class After, class Emit>
  std::vector<RootRecord> run(const char* kernel, mpi::TrafficTally& search_traffic, Search&& search, After&& after,
                              const SearchCheck& validation, const SearchCheck& counting, Emit&& emit) const {
    const SearchCheck& checking = options.skip_validation ? counting : validation;
    std::vector<RootRecord> records;
    std::size_t batch_start = 0;  // the first record of the batch under way
    const auto finish = [&](std::size_t k) {
      RootRecord& rec = records[k];
      emit(rec);
      rec.teps = rec.seconds > 0 ? static_cast<double>(rec.nedge) / rec.seconds : 0;
      progress.say("%s %zu/%zu root %lld: %.4f s, %lld edges, %.4g TEPS%s", kernel, k + 1, roots.size(),
                   static_cast<long long>(rec.shown_root), rec.seconds, static_cast<long long>(rec.nedge), rec.teps,
                   options.skip_validation ? "" : ", valid");
    };
    for (std::size_t k = 0; k < roots.size(); ++k) {
      RootRecord rec;
      rec.root = roots[k];
      rec.shown_root = rec.root;
      source.to_file_ids({&rec.shown_root, 1});
      rec.seconds = timed_collective(comm, [&] {
        search_traffic.start(mpi::traffic().snapshot());
        search(rec);
        search_traffic.stop(mpi::traffic().snapshot());
      });
      after(rec);
      records.push_back(std::move(rec));
      validation_traffic.start(mpi::traffic().snapshot());
      const bool ends_batch = k + 1 - batch_start == static_cast<std::size_t>(checking.batch) || k + 1 == roots.size();
      if (!ends_batch) {
        records[k].validate_seconds = timed_collective(comm, [&] { checking.wait(records[k].root); });
        validation_traffic.stop(mpi::traffic().snapshot());
        continue;
      }
      std::vector<vertex_t> batch_roots;
      std::vector<std::string> names;
      for (std::size_t j = batch_start; j <= k; ++j) {
        batch_roots.push_back(records[j].root);
        names.push_back("search " + std::to_string(j + 1) + " of " + std::to_string(roots.size()));
      }
      std::vector<std::int64_t> nedge;
      const double shared = timed_collective(comm, [&] { nedge = checking.check(batch_roots, names); });
      validation_traffic.stop(mpi::traffic().snapshot());
      for (std::size_t j = batch_start; j <= k; ++j) {
        records[j].nedge = nedge[j - batch_start];
        if (options.skip_validation) {
          records[j].validate_seconds = 0;
          records[j].result = "not validated";
        } else {
          records[j].validate_seconds += shared / static_cast<double>(k + 1 - batch_start);
          records[j].result = "valid";
        }
        finish(j);
      }
      batch_start = k + 1;
    }
    return records;
  }
};

}  // namespace

RunRecord run_benchmark(const RunOptions& options, const mpi::Comm& comm) {
  const Progress progress(comm.is_root() && !options.quiet);
  RunRecord run;
  run.options = options;
  // The edge source: the generator, or a graph file (opened, and checked, by one pass over it).
  std::optional<KroneckerGenerator> generator;
  std::unique_ptr<EdgeSource> source_owner;
  std::string what;
  if (options.input_path.empty()) {
    generator.emplace(options.scale, options.edgefactor, options.seed);
    check_rank_count(generator->num_vertices(), comm.size());
    source_owner = std::make_unique<KroneckerSource>(*generator, comm.rank(), comm.size());
    what = "SCALE " + std::to_string(options.scale);
  } else {
    const GraphFormat format = graph_format(options.input_path, options.input_format);
    progress.say("reading %s '%s'", to_string(format), options.input_path.c_str());
    std::unique_ptr<FileEdgeSource> file = FileEdgeSource::open(comm, options.input_path, format, options.relabel, options.input_weights);
    check_rank_count(file->num_vertices(), comm.size());
    if (options.kernels.sssp && !file->has_weights()) {
      throw UserError("--kernels sssp needs edge weights, and '" + options.input_path + "' has none");
    }
    // The statistics block's SCALE and edgefactor for a graph of N vertices and M tuples.
    run.options.scale = std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(file->num_vertices() - 1))));
    run.options.edgefactor = static_cast<int>(std::max<std::int64_t>(1, file->global_tuples() >> run.options.scale));
    what = "'" + options.input_path + "'";
    source_owner = std::move(file);
  }
  const EdgeSource& source = *source_owner;
  const double n = generator ? static_cast<double>(generator->num_vertices())
                             : static_cast<double>(static_cast<const FileEdgeSource&>(source).num_vertices());
  // Validation batches hold more trees at once: a batch that would not fit shrinks, never the run.
  KernelChoice& kernels_run = run.options.kernels;
  const auto estimate_with = [&](const KernelChoice& k) {
    return estimate_graph_bytes(n, static_cast<double>(source.global_tuples()), comm.size(), options.bfs, k);
  };
  if (kernels_run.bfs && !options.skip_validation && kernels_run.bfs_validation_batch > 1 &&
      !memory_fits(comm, estimate_with(kernels_run))) {
    KernelChoice one = kernels_run;
    one.bfs_validation_batch = 1;
    if (memory_fits(comm, estimate_with(one))) {  // (else the run itself does not fit: said below)
      while (!memory_fits(comm, estimate_with(kernels_run))) --kernels_run.bfs_validation_batch;
    }
  }
  if (kernels_run.bfs_validation_batch < options.kernels.bfs_validation_batch) {
    progress.say("validating %d searches at a time: %d do not fit the memory", kernels_run.bfs_validation_batch,
                 options.kernels.bfs_validation_batch);
  }
  const std::int64_t estimate = estimate_with(kernels_run);
  check_memory(comm, estimate, what);
  const EngineSpec& spec = find_engine(options.bfs.engine);
  // Which ranks share a node, for the traffic between and within nodes (--ranks-per-node pretends).
  const mpi::NodeTopology nodes(comm, options.bfs.node.ranks_per_node);
  mpi::traffic().set_nodes(nodes.node_of_rank(), comm.rank());

  run.memory_estimate_per_rank = estimate;
  run.num_mpi_processes = comm.size();
  run.threads_per_process = omp_get_max_threads();
  run.validated = !options.skip_validation;
  run.edge_tuples = source.global_tuples();

  // The tuples are never stored: every stage makes (or reads) its rounds again. The generation
  // time is that of making (or reading) the whole list once.
  run.edge_source = source.describe();
  if (generator) {
    progress.say("generating SCALE %d, edgefactor %d (%lld tuples) on %d ranks x %d threads", options.scale,
                 options.edgefactor, static_cast<long long>(source.global_tuples()), comm.size(),
                 run.threads_per_process);
  }
  run.generation_seconds = timed_collective(
      comm, [&] { for_each_round(source, comm, exchange::kBuildRound, [](std::int64_t, std::span<const Edge>) {}); });

  // Kernel 1: the vertex count from the edges, the common partition, each kernel's graph.
  PhaseTraffic traffic;
  std::optional<Partition1D> part;
  std::unique_ptr<BfsEngine> engine;
  std::unique_ptr<SsspEngine> sssp;
  const KernelChoice& kernels = options.kernels;
  progress.say("kernel 1: building the %s graph", kernels.bfs ? spec.name.c_str() : "weighted SSSP");
  const mpi::TrafficSnapshot before_build = mpi::traffic().snapshot();
  run.construction_seconds = timed_collective(comm, [&] {
    // A 1D engine's first pass (arcs per block of rows) rides on the vertex count's.
    ArcSketch sketch;
    ArcSketch* arcs_by_word = kernels.bfs && spec.reads_arc_sketch ? &sketch : nullptr;
    run.vertices = count_vertices(source, comm, arcs_by_word);
    check_rank_count(run.vertices, comm.size());
    part.emplace(run.vertices, comm.size(), comm.rank());
    if (kernels.bfs) {
      engine = spec.make(EngineContext{comm, *part, options.bfs, arcs_by_word});
      engine->build(source);
    }
    if (kernels.sssp) {
      sssp = make_delta_stepping(comm, *part, kernels.delta, use_32_bit_ids(options.bfs.ids, run.vertices));
      sssp->build(source);
    }
  });
  if (engine) run.layout = engine->layout();
  if (!run.layout.empty()) progress.say("kernel 1: the graph is laid out on a %s", run.layout.c_str());
  traffic.construction = mpi::traffic().snapshot().since(before_build);
  run.peak_memory_after_construction = comm.allgather(peak_resident_bytes());

  std::vector<vertex_t> root_ids = options.root_ids;
  if (!options.roots_file.empty()) {
    const std::vector<vertex_t> listed = read_roots_file(options.roots_file, comm);
    root_ids.insert(root_ids.end(), listed.begin(), listed.end());
  }
  const Bitmap connected = connected_vertices(source, *part, comm);
  const std::vector<vertex_t> roots = root_ids.empty()
                                          ? choose_roots(connected, *part, comm, options.roots, options.seed)
                                          : given_roots(root_ids, source, connected, *part, comm);
  if (roots.empty()) throw UserError("no vertex has an edge other than a self-loop: there is nothing to search");
  big_vector<vertex_t> parents(part->local_count());
  mpi::TrafficTally validation_traffic;
  std::vector<std::int64_t> search_peer_bytes;  // kernel 2's, for --comm-matrix
  const KernelLoop loop{comm, options, progress, roots, validation_traffic, source};
  std::optional<SearchOutput> output;
  if (!options.output_path.empty()) output.emplace(comm, options.output_path, options.output_binary, source);

  if (kernels.bfs) {
    // Searches validated (or counted) a batch at a time, one pass over the tuples for all, unless
    // --output writes each tree as its search ends.
    const int batch = output ? 1 : run.options.kernels.bfs_validation_batch;
    BfsBatchValidator validator(source, *part, comm, batch);
    const SearchCheck bfs_check{
        validator.batch(), [&](vertex_t root) { validator.wait(root, parents); },
        [&](const std::vector<vertex_t>& batch, const std::vector<std::string>& names) {
          const std::vector<ValidationResult> results = validator.check(batch.back(), parents);
          std::vector<std::int64_t> nedge;
          for (std::size_t j = 0; j < results.size(); ++j) {
            if (!results[j].ok) throw UserError(failed_search("", batch[j], names[j], results[j]));
            nedge.push_back(results[j].nedge);
          }
          return nedge;
        }};
    ReachedTupleCounter counter(source, *part, comm, batch);
    const SearchCheck bfs_count{counter.batch(), [&](vertex_t) { counter.wait(parents); },
                                [&](const std::vector<vertex_t>&, const std::vector<std::string>&) {
                                  return counter.count(parents);
                                }};
    // Warm-up, untimed but validated, as reference 3.0 does: every timed search then starts after a
    // validation, with the same state of the caches.
    engine->search(roots.front(), parents, nullptr);
    if (!options.skip_validation) bfs_check.check({roots.front()}, {"warm-up search"});
    mpi::TrafficTally search_traffic;
    run.roots = loop.run(
        "BFS", search_traffic, [&](RootRecord& rec) { engine->search(rec.root, parents, &rec.levels); },
        [&](RootRecord& rec) {
          reduce_level_traffic(comm, rec.levels);
          gather_level_phases(comm, rec.levels);
          if (options.inject_fault && part->owns(rec.root)) parents[part->to_local(rec.root)] = kNoParent;
        },
        bfs_check, bfs_count,
        [&](const RootRecord& rec) {
          if (!output) return;
          const std::vector<std::int32_t> depth = tree_depths(*part, comm, rec.root, parents);
          output->write("bfs", rec.root, *part, parents, [&](local_t i) { return depth[i]; });
        });
    traffic.search = search_traffic.counts();
    search_peer_bytes = search_traffic.peer_bytes();
  }
  if (kernels.sssp) {
    big_vector<float> dist(part->local_count());
    const SearchCheck sssp_check{1, nullptr, [&](const std::vector<vertex_t>& batch, const std::vector<std::string>& names) {
                                   const ValidationResult valid =
                                       validate_sssp(source, *part, comm, batch.front(), parents, dist);
                                   if (!valid.ok) throw UserError(failed_search("SSSP ", batch.front(), names.front(), valid));
                                   return std::vector<std::int64_t>{valid.nedge};
                                 }};
    sssp->search(roots.front(), parents, dist, nullptr);  // warm-up, as for BFS
    if (!options.skip_validation) sssp_check.check({roots.front()}, {"warm-up search"});
    mpi::TrafficTally sssp_traffic;
    run.sssp_roots = loop.run(
        "SSSP", sssp_traffic, [&](RootRecord& rec) { sssp->search(rec.root, parents, dist, &rec.buckets); },
        [&](RootRecord& rec) {
          if (options.inject_fault && part->owns(rec.root)) dist[part->to_local(rec.root)] = 1.0f;
        },
        sssp_check,
        SearchCheck{1, nullptr,
                    [&](const std::vector<vertex_t>&, const std::vector<std::string>&) {
                      return std::vector<std::int64_t>{count_reached_tuples(source, *part, comm, parents)};
                    }},
        [&](const RootRecord& rec) {
          if (output) output->write("sssp", rec.root, *part, parents, [&](local_t i) { return dist[i]; });
        });
    traffic.sssp = sssp_traffic.counts();
  }
  if (output) output->close();
  traffic.validation = validation_traffic.counts();
  if (search_peer_bytes.empty()) search_peer_bytes.assign(comm.size(), 0);
  run.traffic = gather_traffic(comm, traffic, search_peer_bytes, options.comm_matrix);
  run.traffic.nodes = nodes.num_nodes();
  if (kernels.bfs) progress.say("%s", traffic_line(run.traffic, roots.size()).c_str());
  run.peak_memory = comm.allgather(peak_resident_bytes());
  std::int64_t peak_total = 0;
  for (std::int64_t b : run.peak_memory) peak_total += b;
  progress.say("peak memory, all ranks: %.3g GB, %.1f bytes per input tuple (estimate %.3g GB per rank)",
               static_cast<double>(peak_total) / 1e9, static_cast<double>(peak_total) / run.edge_tuples,
               static_cast<double>(estimate) / 1e9);
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
  write_edge_file(options.output, slice, comm);
  if (with_weights) write_weight_file(options.weights_output, slice, comm);
}

}  // namespace g500
