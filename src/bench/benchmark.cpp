#include "bench/benchmark.hpp"

#include <omp.h>

#include "bench/memory_check.hpp"
#include "bench/progress.hpp"
#include "bench/roots.hpp"
#include "bfs/engine.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "generator/edge_slice.hpp"
#include "graph/partition_1d.hpp"
#include "io/edge_file.hpp"
#include "validate/bfs_validator.hpp"

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

}  // namespace

RunRecord run_benchmark(const RunOptions& options, const mpi::Comm& comm) {
  const Progress progress(comm.is_root() && !options.quiet);
  const KroneckerGenerator generator(options.scale, options.edgefactor, options.seed);
  check_rank_count(generator.num_vertices(), comm.size());
  check_memory(comm, estimate_run_bytes(options.scale, options.edgefactor, comm.size()),
               "SCALE " + std::to_string(options.scale));

  RunRecord run;
  run.options = options;
  run.num_mpi_processes = comm.size();
  run.threads_per_process = omp_get_max_threads();
  run.validated = !options.skip_validation;

  progress.say("generating SCALE %d, edgefactor %d (%lld tuples) on %d ranks x %d threads", options.scale,
               options.edgefactor, static_cast<long long>(generator.num_edges()), comm.size(), run.threads_per_process);
  EdgeSlice slice;
  run.generation_seconds = timed_collective(comm, [&] { slice = generate_slice(generator, comm, false); });

  const Partition1D part(generator.num_vertices(), comm.size(), comm.rank());
  std::unique_ptr<BfsEngine> engine = make_engine(options.bfs, comm, part);
  progress.say("kernel 1: building the %s graph", engine->name().c_str());
  run.construction_seconds = timed_collective(comm, [&] { engine->build(slice); });

  const std::vector<vertex_t> roots =
      choose_roots(connected_vertices(slice, part, comm), part, comm, options.roots, options.seed);
  if (roots.empty()) throw UserError("no vertex has an edge other than a self-loop: there is nothing to search");
  big_vector<vertex_t> parents(part.local_count());
  engine->search(roots.front(), parents, nullptr);  // warm-up, untimed

  for (std::size_t k = 0; k < roots.size(); ++k) {
    RootRecord rec;
    rec.root = roots[k];
    rec.seconds = timed_collective(comm, [&] { engine->search(rec.root, parents, &rec.levels); });
    if (options.inject_fault && part.owns(rec.root)) parents[part.to_local(rec.root)] = kNoParent;
    if (options.skip_validation) {
      rec.nedge = count_reached_tuples(slice, part, comm, parents);
      rec.result = "not validated";
    } else {
      ValidationResult valid;
      rec.validate_seconds = timed_collective(comm, [&] { valid = validate_bfs(slice, part, comm, rec.root, parents); });
      if (!valid.ok) {
        throw UserError("validation failed for root " + std::to_string(rec.root) + " (search " +
                        std::to_string(k + 1) + " of " + std::to_string(roots.size()) + "): rule " +
                        std::to_string(valid.rule) + ": " + valid.message);
      }
      rec.nedge = valid.nedge;
      rec.result = "valid";
    }
    rec.teps = rec.seconds > 0 ? static_cast<double>(rec.nedge) / rec.seconds : 0;
    progress.say("BFS %zu/%zu root %lld: %.4f s, %lld edges, %.4g TEPS%s", k + 1, roots.size(),
                 static_cast<long long>(rec.root), rec.seconds, static_cast<long long>(rec.nedge), rec.teps,
                 options.skip_validation ? "" : ", valid");
    run.roots.push_back(std::move(rec));
  }
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
