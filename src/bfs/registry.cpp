#include "bfs/registry.hpp"

#include "core/error.hpp"

namespace g500 {

const std::vector<EngineSpec>& engine_table() {
  static const std::vector<EngineSpec> table = {
      {"hybrid-1d", "direction-optimizing BFS on a 1D partition (Beamer; papers 000, 002)", &make_hybrid_1d,
       &hybrid_1d_memory_bytes, mpi::ThreadLevel::funneled, {&kDirectionGroup, &kBottomUpGroup, &kIdsGroup, &kNodeGroup},
       true},
      {"top-down-1d",
       "level-synchronous top-down BFS with asynchronous, coalesced point-to-point queries, one thread per rank "
       "(the reference code's; paper 001)",
       &make_top_down_1d, &top_down_1d_memory_bytes, mpi::ThreadLevel::funneled, {&kCoalescingGroup, &kIdsGroup}, true},
      {"top-down-2d",
       "level-synchronous top-down BFS on an R x C process grid: frontier expand in the column, compressed fold "
       "in the row, overlapped (paper 004)",
       &make_top_down_2d, &grid_2d_memory_bytes, mpi::ThreadLevel::funneled, {&kGridGroup, &kIdsGroup}},
      {"hybrid-2d",
       "direction-optimizing BFS on an R x C process grid: top-down as top-down-2d, bottom-up in R sub-steps "
       "around the column (Beamer et al., IPDPSW 2013)",
       &make_hybrid_2d, &grid_2d_memory_bytes, mpi::ThreadLevel::funneled,
       {&kDirectionGroup, &kGridGroup, &kIdsGroup}},
#ifdef G500_HAVE_SORT_UNIQUE
      {"sort-unique",
       "GPU-style top-down BFS: frontier expanded by prefix sum and binary search, sort + unique, exchange by owner "
       "(paper 003; Thrust: CUDA in g500-cuda, OpenMP on the CPU)",
       &make_sort_unique, &sort_unique_memory_bytes, mpi::ThreadLevel::funneled, {&kDeviceGroup, &kIdsGroup}},
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
