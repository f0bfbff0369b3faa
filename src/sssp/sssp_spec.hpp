#pragma once
// Kernel 3's row, as each BFS engine has one (bfs/engine_spec.hpp): its name, how to make it, its
// memory estimate, and its options in one group (registration, checks and JSON in one place), so
// that a new --sssp-* option touches src/sssp/ only. Kernel 3 has one engine, delta-stepping.
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>

#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"
#include "sssp/delta_stepping.hpp"
#include "sssp/sssp_options.hpp"

namespace CLI {
class App;
}

namespace g500 {

struct SsspOptionGroup {
  // Registers --delta and the --sssp-* options (each checked as it is parsed: UserError or CLI11's
  // one-line message).
  void (*add)(CLI::App& app, SsspOptions& options);
  void (*to_json)(const SsspOptions& options, nlohmann::json& out);
};

struct SsspSpec {
  const char* name;
  const char* help;
  std::unique_ptr<SsspEngine> (*make)(const mpi::Comm& comm, const Partition1D& part, const SsspOptions& options,
                                      bool ids_32_bit);
  // Bytes per rank of the engine's graph while built, and of its graph and state while searching.
  SsspMemory (*memory_bytes)(double vertices, double tuples, int ranks, double id_bytes, const SsspOptions& options);
  const SsspOptionGroup* options;
};

const SsspSpec& sssp_engine();

}  // namespace g500
