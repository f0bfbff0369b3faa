#pragma once
// Each engine's factory and memory estimate, defined in the engine's own file. A plain header: a
// CUDA engine can sit behind a declaration here without the registry seeing any CUDA.
#include <cstdint>
#include <memory>

#include "bfs/engine.hpp"

namespace g500 {

// The size of the problem an estimate is for.
struct GraphShape {
  double vertices = 0;  // N
  double tuples = 0;    // M, input tuples in the whole list
  int ranks = 1;
};

std::unique_ptr<BfsEngine> make_hybrid_1d(const EngineContext& context);
std::int64_t hybrid_1d_memory_bytes(const GraphShape& shape, const BfsOptions& options);

std::unique_ptr<BfsEngine> make_top_down_1d(const EngineContext& context);
std::int64_t top_down_1d_memory_bytes(const GraphShape& shape, const BfsOptions& options);

// The 2D grid engines (bfs/engines/grid_2d.cpp): top-down only, and direction-optimizing.
std::unique_ptr<BfsEngine> make_top_down_2d(const EngineContext& context);
std::unique_ptr<BfsEngine> make_hybrid_2d(const EngineContext& context);
std::int64_t grid_2d_memory_bytes(const GraphShape& shape, const BfsOptions& options);

// Built when Thrust was found (G500_HAVE_SORT_UNIQUE); the device half is linked in separately,
// for the CPU (g500) or CUDA (g500-cuda).
std::unique_ptr<BfsEngine> make_sort_unique(const EngineContext& context);
std::int64_t sort_unique_memory_bytes(const GraphShape& shape, const BfsOptions& options);

}  // namespace g500
