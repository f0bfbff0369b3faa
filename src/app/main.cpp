// g500: parse options, then hand over to the harness. Errors a user can cause end here as one
// line on stderr and exit status 1, on every rank.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <new>

#include "app/options.hpp"
#include "bench/benchmark.hpp"
#include "bench/report.hpp"
#include "core/error.hpp"
#include "mpi/comm.hpp"

namespace {

std::string joined(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

void write_json(const std::string& path, const g500::RunRecord& run, const std::string& command_line) {
  std::ofstream out(path);
  if (!out) throw g500::UserError("cannot write JSON to '" + path + "'");
  out << g500::to_json(run, command_line).dump(1) << '\n';
}

// Collective: fails on every rank before any work if rank 0 cannot create the JSON file.
void check_writable(const std::string& path, const g500::mpi::Comm& comm) {
  int ok = 1;
  if (comm.is_root()) ok = std::ofstream(path) ? 1 : 0;
  if (!comm.allreduce(ok, g500::mpi::Op::min)) throw g500::UserError("cannot write JSON to '" + path + "'");
}

}  // namespace

int main(int argc, char** argv) {
  g500::mpi::Environment env(argc, argv);
  const g500::mpi::Comm world = g500::mpi::Comm::world();
  try {
    const g500::Command cmd = g500::parse_command_line(argc, argv);
    switch (cmd.kind) {
      case g500::Command::Kind::help:
        if (world.is_root()) std::cout << cmd.help_text;
        return 0;
      case g500::Command::Kind::generate:
        g500::run_generate(cmd.generate, world);
        return 0;
      case g500::Command::Kind::run: {
        if (!cmd.run.json_path.empty()) check_writable(cmd.run.json_path, world);
        const g500::RunRecord run = g500::run_benchmark(cmd.run, world);
        // Only rank 0 writes, so a failure to write is rank 0's alone: report it and stop the job.
        if (world.is_root()) {
          g500::print_statistics(std::cout, run);
          std::cout.flush();
          if (!cmd.run.json_path.empty()) {
            try {
              write_json(cmd.run.json_path, run, joined(argc, argv));
            } catch (const g500::UserError& e) {
              std::fprintf(stderr, "g500: error: %s\n", e.what());
              world.abort(1);
            }
          }
        }
        return 0;
      }
    }
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
