#include "bfs/registry.hpp"

#include "bfs/engines/grid_2d/grid_2d.hpp"
#include "bfs/engines/hybrid_1d.hpp"
#include "bfs/engines/top_down_1d.hpp"
#ifdef G500_HAVE_THRUST
#include "bfs/engines/gpu_hybrid/gpu_hybrid.hpp"
#include "bfs/engines/sort_unique/sort_unique.hpp"
#endif
#include "core/error.hpp"

namespace g500 {

const std::vector<EngineSpec>& engine_table() {
  // Never destroyed: under SMPI's mmap privatization every simulated rank builds its own copy at
  // the same address, and a destructor registered by each would free it once a rank at exit.
  static const std::vector<EngineSpec>& table = *new std::vector<EngineSpec>{
      hybrid_1d_engine(),   top_down_1d_engine(), top_down_2d_engine(), hybrid_2d_engine(),
#ifdef G500_HAVE_THRUST  // the GPU engines, built when Thrust was found
      sort_unique_engine(), gpu_hybrid_engine(),
#endif
  };
  return table;
}

const EngineSpec& find_engine(const std::string& name) {
  for (const EngineSpec& e : engine_table())
    if (e.name == name) return e;
  throw UserError("unknown BFS engine '" + name + "' (known: " + engine_list() + ")");
}

std::string engine_list() {
  std::string list;
  for (const EngineSpec& e : engine_table()) list += (list.empty() ? "" : "|") + e.name;
  return list;
}

}  // namespace g500
