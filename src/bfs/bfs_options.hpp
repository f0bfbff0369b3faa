#pragma once
// The options of the BFS engines, one struct per option group. A group is registered, checked and
// written to JSON in one place (bfs/option_groups.cpp); an engine's registry row names the groups
// it reads. A plain header (no CLI or JSON library) so any engine, CUDA ones too, can include it.
#include <cstdint>
#include <string>
#include <vector>

#include "core/id_width.hpp"
#include "graph/row_placement.hpp"

namespace g500 {

// Beamer's direction switching (group "direction").
struct DirectionOptions {
  // top-down -> bottom-up when frontier edges > unexplored edges / alpha. Beamer's 15 suits a costly
  // bottom-up step; ours tests a compact first-neighbour array first, so going bottom-up sooner pays
  // (60 against 15: docs/tuning.md).
  double alpha = 60.0;
  double beta = 18.0;   // bottom-up -> top-down when the frontier shrinks below N / beta
};

enum class DegreeOrder { automatic, on, off };

// Bottom-up steps (group "bottom-up").
struct BottomUpOptions {
  int summary_granularity = 64;  // frontier bits per summary bit
  // Row scans read the summary before each frontier bit (paper 000). Off by default: while the
  // bitmap sits in cache the extra branch costs more than it saves (docs/tuning.md), but a bitmap
  // far larger than the cache is the case it was made for.
  bool summary_check = false;
  // hybrid-1d: each rank's vertices renumbered by decreasing degree within windows of 32768
  // (graph/window_order.hpp); parents go back to the original ids inside the timed search, through
  // a table of every vertex's move (2 bytes a vertex on every rank). Automatic: on while a rank's
  // arcs are at least the vertices (the rows' sort gathers every vertex's record then anyway;
  // graph/csr_1d.hpp's neighbour_keys_by_entry), off past that, where the table would grow with N.
  DegreeOrder degree_order = DegreeOrder::automatic;
};

// Asynchronous top-down steps (group "coalescing"): queries gathered per destination before a
// message goes out (paper 001).
struct CoalescingOptions {
  std::int64_t coalescing_size = 256;
};

// GPU engines (group "device"): how the exchange reaches device memory. auto: straight from
// device buffers when MPI says it is CUDA-aware, else staged through host memory.
enum class Staging { automatic, on, off };
struct DeviceOptions {
  Staging staging = Staging::automatic;
  // Set by `g500 plan --gpus-per-node` only: the estimate is for GPUs, whose memory is not the
  // host's, even where the planning build's device memory is host memory (the CPU build).
  bool planned_gpu = false;
};

// 2D engines (group "grid"): the process grid, the fold's wire format and vertex sorting (paper 004).
enum class FoldFormat { vlq, none };
// How the 2D engines hold the column's and the row's frontiers (`--grid-frontiers`): apart, or
// shared (one storage that top-down and bottom-up levels take in turn, without the column's
// at-once search in a search's tail). `automatic`: shares_frontiers (grid_2d.hpp).
enum class FrontierStorage { automatic, apart, shared };

struct GridOptions {
  std::string grid = "auto";  // "RxC", or the most square grid of the rank count
  FoldFormat compress = FoldFormat::vlq;
  bool sort_vertices = true;
  RowPlacement rows = RowPlacement::automatic;  // kernel 1's rows (graph/row_placement.hpp)
  FilledRows filled_rows = FilledRows::automatic;  // how sparse rows find theirs (the same header)
  FrontierStorage frontiers = FrontierStorage::automatic;
  // --grid-positions: the width of a stored row entry, settled with --ids (core/id_width.hpp).
  IdWidth positions = IdWidth::automatic;
};

// Node-aware communication of hybrid-1d (group "node"; papers 000 and 002).
struct NodeOptions {
  int ranks_per_node = 0;           // 0: the real nodes; K: pretend nodes of K consecutive ranks
  bool node_shared = false;         // one frontier bitmap per node, in shared memory
  bool parallel_allgather = false;  // every rank of a node takes part in the inter-node allgather
  std::string relay;                // "NxM": top-down messages through a relay rank; empty: direct
  int hubs = 0;                     // highest-degree vertices whose frontier and visited bits every rank keeps
};

struct BfsOptions {
  // "auto" until the rank count is known; then the engine that runs (bfs/engine_choice.hpp).
  std::string engine = "auto";
  // --bfs auto's candidates, fixed by the options given; empty when the engine was named.
  std::vector<std::string> auto_candidates;
  DirectionOptions direction;
  BottomUpOptions bottom_up;
  CoalescingOptions coalescing;
  DeviceOptions device;
  GridOptions grid;
  NodeOptions node;
  IdWidth ids = IdWidth::automatic;  // group "ids" (core/id_width.hpp)
  // Items per exchange round within a search step; 0 takes the engine's default. Not an option
  // of the command line: tests set it small so that steps take many rounds.
  std::int64_t exchange_round = 0;
};

// Whether settled options store 32-bit ids (std::logic_error when --ids was never settled).
inline bool stores_32_bit_ids(const BfsOptions& options) { return is_32_bit(options.ids); }

}  // namespace g500
