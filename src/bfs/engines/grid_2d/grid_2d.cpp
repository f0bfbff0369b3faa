#include "bfs/engines/grid_2d/grid_2d.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "bfs/direction_policy.hpp"
#include "bfs/id_width.hpp"
#include "exchange/owner_query.hpp"
#include "exchange/rounds.hpp"
#include "graph/degree_code.hpp"
#include "graph/row_builder.hpp"
#include "core/memory.hpp"

namespace g500 {
namespace {

// Bytes of one fold packet: small enough that a round splits into many, for the receiving threads.
constexpr std::size_t kPacketBytes = std::size_t{1} << 14;
// Questions a rank asks its processor row at once while kernel 1 names entries' vertices.
constexpr std::int64_t kQueryRound = std::int64_t{1} << 22;

// The blocks of this rank's processor column, laid end to end: its range V_j.
exchange::SliceLayout column_layout(const Partition2D& grid) {
  const Partition1D& part = grid.part();
  const int first_block = grid.col() * grid.grid().rows;
  exchange::SliceLayout layout;
  for (int i = 0; i < grid.grid().rows; ++i) {
    const int b = first_block + i;
    layout.word_counts.push_back(part.first_word(b + 1) - part.first_word(b));
    layout.word_displs.push_back(part.first_word(b) - part.first_word(first_block));
  }
  return layout;
}

// The blocks of this rank's processor row, by row-range position (whole words: only the graph's last block
// may end inside a word, and it is last in its row).
exchange::SliceLayout row_layout(const Partition2D& grid) {
  const Partition1D& part = grid.part();
  exchange::SliceLayout layout;
  for (int c = 0; c < grid.grid().cols; ++c) {
    const int b = grid.block_in_row(c);
    layout.word_counts.push_back(part.first_word(b + 1) - part.first_word(b));
    layout.word_displs.push_back(grid.w_begin(c) / kWordBits);
  }
  return layout;
}

// Kernel 1's peak (placing rows, then hybrid-2d's bottom-up tables beside the kept graph) and the
// search's (the kept graph, the tables, bitmaps and exchange buffers).
EngineMemory grid_2d_memory_bytes(const GraphShape& shape, const BfsOptions& options, bool hybrid) {
  const double id = id_bytes(options), position = is_32_bit(options.grid.positions) ? 4 : 8;
  // The harness estimates before it generates anything, so a grid that does not fit the rank
  // count is refused here, at once.
  const GridShape grid = parse_grid(options.grid.grid, shape.ranks);
  const double n_local = shape.vertices / shape.ranks + 64, n_row = shape.vertices / grid.rows + 64 * grid.cols;
  const double n_col = shape.vertices / grid.cols + 64 * grid.rows;
  const double arcs = 2 * shape.tuples / shape.ranks + 1;
  const double filled_rows = filled_rows_bound(shape, grid);
  const RowPlacement placement = resolve_row_placement(options.grid.rows, shape.vertices, shape.tuples, grid);

  // The kept graph: entries (duplicates' room included), the rows' index, degrees and sort maps.
  // An entry is a row-range position, 32-bit where a processor row's range fits (--grid-positions).
  // Offsets are 32-bit while a rank's entries number below 2^32 (graph/row_offsets.hpp), with room
  // for a rank that holds a quarter more than the mean.
  const double offset = 1.25 * arcs < 4294967295.0 ? 4 : 8;
  // The rows with entries: a bit a row of the column range and a count a word, or listed.
  const bool listed =
      lists_filled_rows(options.grid.filled_rows, options.grid.rows, shape.vertices, shape.tuples, grid);
  const double finding = listed ? 4 * filled_rows + 16.0 * (grid.rows + 1) : n_col / 8 + 4 * n_col / 64;
  const double graph = position * arcs + offset * filled_rows + finding + (8 + 2 * id) * n_local;
  // hybrid: the vertex of each row-range position and its degree code (dense), or of each entry
  // (sparse: asked in rounds, an owner, a slot, and question and answer each way a question; kept
  // as its index in its block, in as many bits as a block needs, and only with sorted blocks);
  // then, dense, each filled row's first entry and its vertex.
  const double codes = placement == RowPlacement::dense ? n_row : arcs;
  // The index sits above the position in 64-bit entries with room, else in a table of its own.
  const int index_bits = rows::id_bits(static_cast<std::int64_t>(n_local));
  const bool in_entry = position == 8 &&
                        Grid2D<vertex_t, vertex_t>::index_in_entry(rows::id_bits(static_cast<std::int64_t>(n_row)), index_bits);
  const double index_bytes = options.grid.sort_vertices && !in_entry ? index_bits / 8.0 : 0;
  const double vertices = placement == RowPlacement::dense ? id * n_row : index_bytes * arcs;
  const char* const vertices_name = placement == RowPlacement::dense ? "row range: each position's vertex"
                                                                     : "each entry's vertex: its index in its block";
  // An owner query holds an owner, a slot and a reply (an index and a code: two ids' room) a
  // question; it answers the row's own questions in place, so only the others' share of a round,
  // (C - 1) / C of it, is sent and received as questions and answered back.
  const double remote = (grid.cols - 1.0) / grid.cols;
  const double asking = placement == RowPlacement::dense ? 0
                                                         : (4 + 8 + 2 * id + remote * (2 * position + 4 * id)) *
                                                               std::min(arcs, static_cast<double>(kQueryRound));
  const double first_entries = placement == RowPlacement::dense ? 2 * id * filled_rows : 0;
  // Kernel 1's larger moment: its rows being placed, or hybrid-2d's tables made beside the kept graph.
  std::vector<MemoryPart> placing = csr_2d_build_parts(shape, grid, id, position, placement, options.grid.filled_rows);
  std::vector<MemoryPart> tables = {{"the kept graph", graph}, {"degree codes", codes}};
  if (vertices > 0) tables.insert(tables.begin() + 1, {vertices_name, vertices});
  if (asking > 0) tables.push_back({"entries' vertices asked: round buffers", asking});
  if (first_entries > 0) tables.push_back({"filled rows' first entries and vertices", first_entries});

  EngineMemory need = EngineMemory::of(std::max(total_bytes(placing), total_bytes(tables)), 0);
  need.build_parts = total_bytes(placing) >= total_bytes(tables) ? std::move(placing) : std::move(tables);
  const bool index_above = placement == RowPlacement::sparse && options.grid.sort_vertices && in_entry;
  need.hold(index_above ? "entries (a row-range position each, its vertex's index above it)"
                        : "entries (a row-range position each)",
            position * arcs);
  need.hold("row index (an offset a filled row)", offset * filled_rows);
  need.hold(listed ? "rows with entries: a sorted list" : "column range: filled-row bitmap and counts", finding);
  need.hold("block: degrees and sort maps", (8 + 2 * id) * n_local);
  if (vertices > 0) need.hold(vertices_name, vertices);
  if (first_entries > 0) need.hold("filled rows' first entries and vertices", first_entries);
  need.hold("visited (two orders) and next, block bitmaps", 3 * n_local / 8);
  if (hybrid && shares_frontiers(options.grid.frontiers, grid, shape.vertices, shape.tuples)) {
    need.hold("column and row frontiers: one bitmap, a level's", std::max(n_col, n_row) / 8);
  } else {
    need.hold("column frontier bitmap", n_col / 8);
    need.hold("row frontier bitmap", n_row / 8);
  }
  // hybrid: parents found for the column's other blocks, encoded (at most an id and a byte of gap
  // a vertex), held up to the budget and one sub-step's more (a block), beside that sub-step's
  // pairs; and, when sent, those and this block's received, through the fold's slot
  const double held =
      std::min((id + 1) * n_local * (grid.rows - 1),
               static_cast<double>(Grid2D<std::uint32_t, std::uint32_t>::kFoundBudget) + (id + 1) * n_local);
  need.hold("bottom-up: found parents held, a sub-step's pairs", held + 2 * id * n_local);
  if (grid.rows > 1) need.hold("bottom-up: found parents sent and received", held + (id + 1) * n_local);
  need.hold("fold: two slots, sent and received", 2 * 2 * 20.0 * static_cast<double>(exchange::kTopDownRound));
  need.hold("top-down: claims kept, each thread", 2 * id * static_cast<double>(omp_get_max_threads()) * 4096);
  return need;
}

EngineMemory hybrid_2d_memory_bytes(const GraphShape& shape, const BfsOptions& options) {
  return grid_2d_memory_bytes(shape, options, true);
}
EngineMemory top_down_2d_memory_bytes(const GraphShape& shape, const BfsOptions& options) {
  return grid_2d_memory_bytes(shape, options, false);
}

// The engine for the settled widths of ids and positions.
std::unique_ptr<BfsEngine> make_grid_2d(const EngineContext& context, bool direction_optimizing) {
  if (stores_32_bit_ids(context.options))
    return std::make_unique<Grid2D<std::uint32_t, std::uint32_t>>(context, direction_optimizing);
  if (is_32_bit(context.options.grid.positions))
    return std::make_unique<Grid2D<vertex_t, std::uint32_t>>(context, direction_optimizing);
  return std::make_unique<Grid2D<vertex_t, vertex_t>>(context, direction_optimizing);
}

}  // namespace

bool shares_frontiers(FrontierStorage choice, GridShape grid, double vertices, double tuples) {
  if (choice != FrontierStorage::automatic) return choice == FrontierStorage::shared;
  const double smaller = std::min(vertices / grid.rows, vertices / grid.cols);
  return smaller / 8 >= 2 * tuples / (static_cast<double>(grid.rows) * grid.cols);
}

EngineSpec top_down_2d_engine() {
  return {.name = "top-down-2d",
          .help =
              "level-synchronous top-down BFS on an R x C process grid: frontier expand in the column, "
              "compressed fold in the row, overlapped (paper 004)",
          .make = [](const EngineContext& c) { return make_grid_2d(c, false); },
          .memory_bytes = &top_down_2d_memory_bytes,
          .thread_level = mpi::ThreadLevel::funneled,
          .option_groups = {&kGridGroup, &kIdsGroup}};
}

EngineSpec hybrid_2d_engine() {
  return {.name = "hybrid-2d",
          .help =
              "direction-optimizing BFS on an R x C process grid: top-down as top-down-2d, bottom-up in R "
              "sub-steps around the column (Beamer et al., IPDPSW 2013), in the search's tail all at once",
          .make = [](const EngineContext& c) { return make_grid_2d(c, true); },
          .memory_bytes = &hybrid_2d_memory_bytes,
          .thread_level = mpi::ThreadLevel::funneled,
          .option_groups = {&kDirectionGroup, &kGridGroup, &kIdsGroup}};
}

template <class Column, class Position>
Grid2D<Column, Position>::Grid2D(const EngineContext& context, bool direction_optimizing)
    : options_(context.options),
      comm_(context.comm),
      part_(context.part),
      grid_(context.part, parse_grid(context.options.grid.grid, context.comm.size())),
      row_comm_(context.comm.split(grid_.row(), grid_.col())),
      col_comm_(context.comm.split(grid_.col(), grid_.row())),
      direction_optimizing_(direction_optimizing),
      compression_(options_.grid.compress == FoldFormat::vlq ? exchange::FoldCompression::vlq
                                                             : exchange::FoldCompression::none),
      sparse_allowed_(exchange::SliceGather::positions_fit(part_.count_of(0) + kWordBits)),
      column_gather_(col_comm_, column_layout(grid_)),
      row_gather_(row_comm_, row_layout(grid_)),
      fold_out_(grid_.grid().cols, omp_get_max_threads(), compression_, sizeof(Column), kPacketBytes),
      found_(static_cast<std::size_t>(omp_get_max_threads()) * grid_.grid().rows),
      claimed_(static_cast<std::size_t>(omp_get_max_threads())) {}

template <class Column, class Position>
std::string Grid2D<Column, Position>::layout() const {
  char text[64];
  std::snprintf(text, sizeof text, "%dx%d process grid", grid_.grid().rows, grid_.grid().cols);
  return text;
}

template <class Column, class Position>
void Grid2D<Column, Position>::build(const EdgeSource& source) {
  csr_ = build_csr_2d<Column, Position>(source, grid_, comm_, row_comm_, col_comm_, options_.grid.sort_vertices,
                                        exchange::kBuildRound, options_.grid.rows, SortKeys::narrowest,
                                        options_.grid.filled_rows);
  global_entries_ = comm_.allreduce<edge_count_t>(csr_.local_entries(), mpi::Op::sum);
  connected_local_ = 0;
  for (local_t v = 0; v < part_.local_count(); ++v) connected_local_ += csr_.degree[v] > 0;
  const local_t n_local = part_.local_count();
  visited_ = Bitmap(n_local);
  visited_local_ = Bitmap(n_local);
  next_ = Bitmap(n_local);
  if (direction_optimizing_) next_sorted_ = Bitmap(n_local);
  const std::int64_t column_words = words_for(grid_.col_count(grid_.col()));
  const std::int64_t row_words = direction_optimizing_ ? words_for(grid_.w_count()) : 0;
  frontiers_shared_ = direction_optimizing_ &&
                      shares_frontiers(options_.grid.frontiers, grid_.grid(), static_cast<double>(part_.num_vertices()),
                                       static_cast<double>(source.global_tuples()));
  if (frontiers_shared_) {
    frontier_storage_[0] = Bitmap(std::max(column_words, row_words) * kWordBits);
    row_frontier_ = {frontier_storage_[0].data(), static_cast<std::size_t>(row_words)};
  } else {
    frontier_storage_[0] = Bitmap(column_words * kWordBits);
    frontier_storage_[1] = Bitmap(row_words * kWordBits);
    row_frontier_ = {frontier_storage_[1].data(), static_cast<std::size_t>(row_words)};
  }
  column_frontier_ = {frontier_storage_[0].data(), static_cast<std::size_t>(column_words)};
  if (direction_optimizing_) build_bottom_up_tables();
  parent_bits_ = rows::id_bits(part_.num_vertices());
}

template <class Column, class Position>
void Grid2D<Column, Position>::build_bottom_up_tables() {
  own_w_begin_ = grid_.w_begin(grid_.col());
  own_begin_ = part_.begin_of(grid_.block_in_row(grid_.col()));
  // The degree code of each entry's vertex: by row-range position (dense) or by entry (sparse).
  const bool by_entry = csr_.placement == RowPlacement::sparse;
  const std::vector<std::uint8_t> code = by_entry ? ask_entry_vertices() : gather_row_tables();
  // Each row's entry of highest degree to its front; the rotation keeps the others in order.
  const SparseRows<Column>& index = csr_.index;
  const std::int64_t filled = index.filled_rows();
  Position* const columns = csr_.columns.data();
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t k = 0; k < filled; ++k) {
    const edge_count_t first = index.offset(k), end = index.offset(k + 1);
    const auto code_at = [&](edge_count_t e) { return by_entry ? code[e] : code[columns[e]]; };
    edge_count_t best = first;
    for (edge_count_t e = first; e < end; ++e)
      if (code_at(e) > code_at(best)) best = e;
    std::rotate(columns + first, columns + best, columns + best + 1);
    if (by_entry && !entry_index_.empty() && best != first) {  // rows end inside shared words
      const std::uint64_t moved = entry_index_.get_shared(best);
      for (edge_count_t e = best; e > first; --e) entry_index_.set_shared(e, entry_index_.get_shared(e - 1));
      entry_index_.set_shared(first, moved);
    }
  }
  // Dense rows: each filled row's first entry and its vertex, read in order by the bottom-up scan.
  // Sparse rows hold about one entry a filled row, so the scan reads the entries themselves.
  if (by_entry) return;
  first_.resize(static_cast<std::size_t>(filled));
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < filled; ++k) {
    const edge_count_t e = index.offset(k);
    first_[k] = {columns[e], w_to_global_[columns[e]]};
  }
}

template <class Column, class Position>
std::vector<std::uint8_t> Grid2D<Column, Position>::gather_row_tables() {
  const local_t n_local = part_.local_count();
  mpi::Counts counts, displs;
  for (int c = 0; c < grid_.grid().cols; ++c) {
    counts.push_back(part_.count_of(grid_.block_in_row(c)));
    displs.push_back(grid_.w_begin(c));
  }
  // The vertex behind each row-range position, for the parents a bottom-up step finds: the row gathers each
  // block's local index by sorted number, in place, then adds the block's first id.
  w_to_global_.resize(grid_.w_count());
  {
    std::vector<Column> locals(n_local);
    for (local_t s = 0; s < n_local; ++s) locals[s] = static_cast<Column>(csr_.to_local(s));
    row_comm_.allgatherv<Column>(locals, w_to_global_.data(), counts, displs);
  }
  for (int c = 0; c < grid_.grid().cols; ++c) {
    const vertex_t base = part_.begin_of(grid_.block_in_row(c));
    for (vertex_t w = grid_.w_begin(c); w < grid_.w_begin(c) + counts[c]; ++w) {
      w_to_global_[w] = static_cast<Column>(base + w_to_global_[w]);
    }
  }
  std::vector<std::uint8_t> code(grid_.w_count());
  {
    std::vector<std::uint8_t> mine(n_local);
    for (local_t s = 0; s < n_local; ++s) mine[s] = degree_code(csr_.degree[csr_.to_local(s)]);
    row_comm_.allgatherv<std::uint8_t>(mine, code.data(), counts, displs);
  }
  // This block's part of the table holds its sorted -> local map too: the CSR's copy goes.
  release_storage(csr_.sorted_to_local);
  return code;
}

template <class Column, class Position>
std::vector<std::uint8_t> Grid2D<Column, Position>::ask_entry_vertices() {
  struct Answer {
    Column index;  // the vertex's local index in its block
    std::uint8_t code;
  };
  const RowRangeBlocks blocks{grid_};
  exchange::OwnerQuery<Position, Answer, RowRangeBlocks> query(row_comm_, blocks);
  const std::int64_t entries = csr_.local_entries();
  // Unsorted blocks: a position is the vertex's offset in its block, so only the codes are kept.
  // Sorted ones keep the index above the position where the entry has room, else in a table.
  const bool keep_index = options_.grid.sort_vertices;
  if (keep_index) {
    local_t largest = 0;
    for (int c = 0; c < grid_.grid().cols; ++c) largest = std::max(largest, part_.count_of(grid_.block_in_row(c)));
    const int position_bits = rows::id_bits(grid_.w_count()), index_bits = rows::id_bits(largest);
    if (index_in_entry(position_bits, index_bits)) {
      index_shift_ = position_bits;
      position_mask_ = static_cast<Position>((std::uint64_t{1} << position_bits) - 1);
    } else {
      entry_index_ = PackedInts::for_overwrite(entries, index_bits);
    }
  }
  const int shift = index_shift_;
  Position* const columns = csr_.columns.data();
  std::vector<std::uint8_t> code(static_cast<std::size_t>(entries));
  // Each round's questions are its own entries, read before its answers write above them.
  query.ask_in_rounds(
      std::span<const Position>(columns, static_cast<std::size_t>(entries)), kQueryRound,
      [](Position w) { return static_cast<vertex_t>(w); },
      [&](Position w) {
        const local_t local = csr_.to_local(blocks.to_local(static_cast<vertex_t>(w)));
        return Answer{static_cast<Column>(local), degree_code(csr_.degree[local])};
      },
      [&](std::int64_t first, std::span<const Answer> answers) {
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(answers.size()); ++i) {
          if (shift) columns[first + i] |= static_cast<Position>(static_cast<std::uint64_t>(answers[i].index) << shift);
          else if (keep_index) entry_index_.set_shared(first + i, answers[i].index);
          code[first + i] = answers[i].code;
        }
      });
  return code;
}

template <class Column, class Position>
void Grid2D<Column, Position>::search(vertex_t root, std::span<vertex_t> parents, SearchProfile* profile) {
  start_parents(parents, part_, "2D engine");
  one_thread_ = omp_get_max_threads() == 1;
  visited_.clear();
  visited_local_.clear();
  next_.clear();
  next_sorted_.clear();
  edge_count_t root_degree = 0;
  unvisited_local_ = connected_local_;
  found_held_bound_ = 0;
  if (part_.owns(root)) {
    const local_t r = part_.to_local(root);
    unvisited_local_ -= csr_.degree[r] > 0;
    parents[r] = root;
    visited_.set(csr_.to_sorted(r));
    visited_local_.set(r);
    next_.set(r);
    if (direction_optimizing_) next_sorted_.set(csr_.to_sorted(r));
    root_degree = csr_.degree[r];
  }
  DirectionPolicy policy(options_.direction, part_.num_vertices(), global_entries_);
  policy.start(comm_.allreduce<edge_count_t>(root_degree, mpi::Op::sum));
  LevelProfiler profiler(comm_, profile);
  for (auto& list : found_) list.value.clear();
  bool bottom_up_ran = false;
  for (int level = 0; !policy.done(); ++level) {
    profiler.begin_level();
    Direction direction = policy.choose();
    if (!direction_optimizing_) direction = Direction::top_down;
    StepCounts step;
    if (direction == Direction::top_down) {
      const Timer expanding;
      expand(policy.frontier_vertices());
      profiler.add_exchange(expanding.seconds());
      step = fold(parents, profiler);
    } else {
      step = bottom_up(policy.frontier_vertices(), policy.shrinking(), parents, profiler);
    }
    unvisited_local_ -= step.discovered;
    policy.end_level(profiler, level, direction, step);
    bottom_up_ran |= direction == Direction::bottom_up;
  }
  // Every rank of the column agrees (the direction is chosen from global counts).
  if (bottom_up_ran && grid_.grid().rows > 2) profiler.after_last_level([&] { send_found_parents(parents); });
}

#define G500_GRID_2D_CLASS(Column, Position) template class Grid2D<Column, Position>;
G500_2D_WIDTHS(G500_GRID_2D_CLASS)
#undef G500_GRID_2D_CLASS

}  // namespace g500
