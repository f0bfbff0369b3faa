#pragma once
// The reference code's way of being run, for the scripts sites wrote for it (JUBE, Ramble,
// benchkit, Slurm): `EXE SCALE [edgefactor]`, and its environment. g500 takes the positional form
// and SKIP_VALIDATION under any name. Under the drop-ins' names (links to g500, installed beside
// it) it is the reference's program: g500-bfs for graph500_reference_bfs (kernel 2),
// g500-bfs-sssp for graph500_reference_bfs_sssp (kernels 2 and 3), with SKIP_BFS, TMPFILE,
// REUSEFILE and VERBOSE, the reference's statistics block, and its line for an invalid run. All of
// it becomes g500's own options, read by the one command line (command_line.hpp); any g500 option
// may follow the positional arguments.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace g500 {

// Which program this process is, by the name it was started under.
enum class Persona { g500, reference_bfs, reference_bfs_sssp };
Persona persona_of(const char* argv0);
// The drop-ins' names, for messages and the build.
inline constexpr const char* kReferenceBfsName = "g500-bfs";
inline constexpr const char* kReferenceBfsSsspName = "g500-bfs-sssp";

// An environment variable's value, or nullptr when it is not set (getenv; tests pass their own).
using Environment = std::function<const char*(const char*)>;

struct ReferenceForm {
  Persona persona = Persona::g500;
  std::vector<std::string> args;   // g500's own arguments, the program's name first
  std::vector<std::string> notes;  // what the environment changed, said on stderr before the run
  // TMPFILE: the graph goes through this edge file (and, with kernel 3, its weights in
  // TMPFILE.weights), written by `g500 generate`'s code, then read as --input: under a name of the
  // run's own beside it, removed at the end, unless REUSEFILE is set; with REUSEFILE at TMPFILE
  // itself, with a record that shows later runs it holds their graph (app/graph_through_file.hpp).
  std::string edge_file, weight_file;
  bool reuse_file = false;
};

// Throws UserError (one line) for what the reference would refuse too, or what g500 cannot honour.
ReferenceForm reference_form(int argc, const char* const* argv, const Environment& env);

}  // namespace g500
