// g500: parse options, start MPI at the thread level the chosen engine needs, then hand over to
// the harness. Errors a user can cause end here as one line on stderr and exit status 1, on every
// rank.
#include <malloc.h>
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <optional>

#include "app/command_line.hpp"
#include "app/graph_through_file.hpp"
#include "app/reference_form.hpp"
#include "app/thread_choice.hpp"
#include "app/version.hpp"
#include "bfs/engine_choice.hpp"
#include "bfs/registry.hpp"
#include "core/error.hpp"
#include "exchange/bucket_layout.hpp"
#include "harness/benchmark.hpp"
#include "harness/reference_style.hpp"
#include "harness/report.hpp"
#include "io/output_file.hpp"
#include "io/staged_file.hpp"
#include "mpi/comm.hpp"
#include "mpi/root_step.hpp"

namespace {

std::string joined(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    if (i) s += ' ';
    s += argv[i];
  }
  return s;
}

// Collective: every output is checked on rank 0 before any work, without touching it: it can be
// written, and it is neither an input nor another output.
void check_outputs(const std::vector<g500::io::NamedPath>& inputs, const std::vector<g500::io::NamedPath>& outputs,
                   const g500::mpi::Comm& comm) {
  g500::mpi::on_root_for_all(comm, [&] {
    g500::io::check_distinct(inputs, outputs);
    for (const g500::io::NamedPath& out : outputs)
      if (!out.path.empty()) g500::io::check_writable(out.path);
  });
}

int run(const g500::Command& cmd, const g500::ReferenceForm& form, int argc, char** argv, const g500::mpi::Comm& world) {
  switch (cmd.kind) {
    case g500::Command::Kind::help:
      if (world.is_root()) std::cout << cmd.help_text;
      return 0;
    case g500::Command::Kind::version:
#ifdef G500_CUDA_BUILD
      if (world.is_root()) std::cout << g500::version_text(true);
#else
      if (world.is_root()) std::cout << g500::version_text(false);
#endif
      return 0;
    case g500::Command::Kind::generate:
      check_outputs({}, {{"-o", cmd.generate.output}, {"--weights", cmd.generate.weights_output}}, world);
      g500::choose_threads(world, /*quiet=*/false);
      g500::run_generate(cmd.generate, world);
      return 0;
    case g500::Command::Kind::plan:
      if (world.is_root()) g500::print_plan(std::cout, cmd.plan);
      return 0;
    case g500::Command::Kind::run: {
      if (world.is_root())
        for (const std::string& note : form.notes) std::fprintf(stderr, "g500: %s\n", note.c_str());
      g500::RunOptions options = cmd.run;
      std::optional<g500::GraphThroughFile> through_file;
      if (!form.edge_file.empty()) through_file.emplace(form, options);
      check_outputs({{"--input", options.input_path}, {"--input-weights", options.input_weights},
                     {"--roots-file", options.roots_file}},
                    {{"--json", options.json_path}, {"--output", options.output_path}}, world);
      g500::choose_threads(world, options.quiet);
      g500::exchange::g_bucket_layout = options.owner_buckets;
      if (through_file) through_file->prepare(world);
      // The run's outputs (--output, --json) land together once all are written, or none does.
      g500::io::PendingOutputs outputs(world);
      const g500::RunRecord run = g500::run_benchmark(options, world, outputs);
      if (world.is_root()) {
        if (cmd.run.reference_stats) g500::print_reference_statistics(std::cout, run);
        else g500::print_statistics(std::cout, run);
        std::cout.flush();
      }
      // Rank 0 writes the JSON; every rank learns whether that worked, so all exit alike.
      if (!cmd.run.json_path.empty()) {
        g500::mpi::on_root_for_all(world, [&] {
          nlohmann::json record = g500::to_json(run, joined(argc, argv));
          record["version"] = g500::version();
          record["commit"] = g500::source_commit();
          record["owner_buckets"] =
              g500::exchange::queues_items(world.size(), omp_get_max_threads()) ? "queued" : "per-rank";
          outputs.add(g500::io::write_text_staged(cmd.run.json_path, record.dump(1) + "\n"));
        });
      }
      outputs.commit();
      return 0;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Buffers come and go every round; with glibc's dynamic threshold they would end up on the heap
  // after the first free, where fragments keep them resident. A fixed threshold maps each one and
  // gives it back when freed, so the peak memory reported is the program's own. It sits at glibc's
  // own default: an exchange's bucket for one rank holds a round's share 1/P, a few hundred KB at
  // a few dozen ranks, and a higher threshold left those on the heap (the peak then grew with P).
  mallopt(M_MMAP_THRESHOLD, 128 << 10);
  // Options first (no MPI needed), so MPI starts at the thread level the chosen engine needs.
  std::optional<g500::Command> cmd;
  g500::ReferenceForm form;
  std::string parse_error;
  g500::mpi::ThreadLevel level = g500::mpi::ThreadLevel::funneled;
  try {
    // The reference's form (SCALE [edgefactor], its environment, the drop-ins) as g500's options.
    form = g500::reference_form(argc, argv, [](const char* name) -> const char* { return std::getenv(name); });
    std::vector<const char*> args;
    for (const std::string& a : form.args) args.push_back(a.c_str());
    cmd = g500::parse_command_line(static_cast<int>(args.size()), args.data());
    if (cmd->kind == g500::Command::Kind::run) {
      const g500::BfsOptions& bfs = cmd->run.bfs;
      level = bfs.engine == g500::kAutoEngine ? g500::thread_level_for(bfs.auto_candidates)
                                              : g500::find_engine(bfs.engine).thread_level;
    }
  } catch (const g500::UserError& e) {
    parse_error = e.what();
  }
  g500::mpi::Environment env(argc, argv, level);
  const g500::mpi::Comm world = g500::mpi::Comm::world();
  g500::mpi::abort_job_when_out_of_memory();
  try {
    if (!parse_error.empty()) throw g500::UserError(parse_error);
    return run(*cmd, form, argc, argv, world);
  } catch (const g500::ValidationFailure& e) {
    // The reference's drop-ins say on stdout, where scrapers read, that there are no results.
    if (world.is_root() && form.persona != g500::Persona::g500) std::printf("No results printed for invalid run.\n");
    if (world.is_root()) std::fprintf(stderr, "g500: error: %s\n", e.what());
    return 1;
  } catch (const g500::UserError& e) {
    if (world.is_root()) std::fprintf(stderr, "g500: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "g500: error: out of memory on rank %d\n", world.rank());
    world.abort(1);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "g500: internal error on rank %d: %s\n", world.rank(), e.what());
    world.abort(2);
  }
  return 0;
}
