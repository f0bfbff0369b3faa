#include "app/version.hpp"

#include "bfs/registry.hpp"
#include "mpi/comm.hpp"

#if __has_include("g500_version.hpp")  // written by CMake (absent in the SimGrid build)
#include "g500_version.hpp"
#endif
#ifndef G500_VERSION
#define G500_VERSION "unknown"
#endif
#ifndef G500_COMMIT
#define G500_COMMIT "unknown"
#endif

namespace g500 {

std::string version() { return G500_VERSION; }
std::string source_commit() { return G500_COMMIT; }

std::string version_text(bool cuda_build) {
  std::string engines;
  for (const EngineSpec& e : engine_table()) engines += (engines.empty() ? "" : ", ") + e.name;
  std::string text = "g500 ";
  text += version() + "\n";
  text += "commit: " + source_commit() + "\n";
  text += "engines: " + engines + "\n";
  const bool has_sort_unique = engines.find("sort-unique") != std::string::npos;
  text += std::string("CUDA: ") +
          (cuda_build        ? "yes (sort-unique runs on CUDA GPUs)\n"
           : has_sort_unique ? "no (sort-unique runs on the CPU through Thrust's OpenMP backend)\n"
                             : "no (sort-unique left out: no Thrust headers at build time)\n");
  text += "MPI: " + mpi::library_version() + " (MPI " + mpi::standard_version() + ")\n";
#ifdef _OPENMP
  text += "OpenMP: " + std::to_string(_OPENMP) + "\n";
#endif
  text += std::string("compiler: ") + __VERSION__ + "\n";
  return text;
}

}  // namespace g500
