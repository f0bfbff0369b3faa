#include "app/version.hpp"

#include <mpi.h>

#include "bfs/registry.hpp"

#ifndef G500_VERSION
#define G500_VERSION "unknown"
#endif

namespace g500 {

std::string version_text(bool cuda_build) {
  std::string engines;
  for (const EngineSpec& e : engine_table()) engines += (engines.empty() ? "" : ", ") + e.name;
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(library, &length);
  std::string mpi(library, static_cast<std::size_t>(length));
  mpi = mpi.substr(0, mpi.find_first_of("\n,"));
  int major = 0, minor = 0;
  MPI_Get_version(&major, &minor);
  std::string text = std::string("g500 ") + G500_VERSION + "\n";
  text += "engines: " + engines + "\n";
  const bool has_sort_unique = engines.find("sort-unique") != std::string::npos;
  text += std::string("CUDA: ") +
          (cuda_build        ? "yes (sort-unique runs on CUDA GPUs)\n"
           : has_sort_unique ? "no (sort-unique runs on the CPU through Thrust's OpenMP backend)\n"
                             : "no (sort-unique left out: no Thrust headers at build time)\n");
  text += "MPI: " + mpi + " (MPI " + std::to_string(major) + "." + std::to_string(minor) + ")\n";
#ifdef _OPENMP
  text += "OpenMP: " + std::to_string(_OPENMP) + "\n";
#endif
  text += std::string("compiler: ") + __VERSION__ + "\n";
  return text;
}

}  // namespace g500
