#pragma once
// `g500 --version`: the version and what this binary was built with (engines, CUDA, MPI, OpenMP,
// compiler), for bug reports and for results that must say what produced them.
#include <string>

namespace g500 {

// The release (CMake's project version) and the source's commit when it was configured.
std::string version();
std::string source_commit();

// cuda_build: whether this executable's sort-unique runs on CUDA GPUs (g500-cuda) or on the CPU.
std::string version_text(bool cuda_build);

}  // namespace g500
