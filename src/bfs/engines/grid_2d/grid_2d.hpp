#pragma once
// BFS on a 2D process grid (paper 004, Ueno and Suzumura, HPDC 2012): `--bfs top-down-2d` and, with
// direction optimization, `--bfs hybrid-2d`. Options: groups "grid" and "ids" ("direction" too for
// hybrid-2d).
//
// Top-down level (paper 004, Algorithm II; top_down_step.cpp): expand, the frontier bitmap of the
// processor column's range gathered within the column; fold, every frontier row's entries sent to
// their targets' owners within the processor row, as packets of (u, v) (exchange/fold_codec.hpp),
// in rounds whose exchange runs (MPI_Ialltoallv) while the next round is encoded and the previous
// one decoded.
//
// Bottom-up level (Beamer, Buluc, Asanovic and Yelick, "Distributed Memory Breadth-First Search
// Revisited: Enabling Bottom-Up Search", IPDPSW 2013; bottom_up_step.cpp): the frontier of the
// row's blocks is gathered within the processor row; the column range's unvisited vertices are
// searched in R sub-steps, each rank of the column taking one block a sub-step and handing its
// bitmap of vertices already given a parent to the next rank of the column, so no vertex is looked
// for twice; after the last sub-step each bitmap's words that other ranks changed are sent back to
// the block's owner, which takes the vertices found for it into its bitmaps; the parents found for
// other ranks go to their owners once, at the end of the search, in one exchange within the column.
// In a search's tail (the frontier shrinking), where the ring would save few tries, the column
// searches at once instead: the column's visited bitmaps gathered, every rank searches every block,
// and one reduce-scatter ORs each block's finds into its owner (two collectives, not R passes).
//
// Vertex numbering: a rank's block is stored by "sorted index" (decreasing degree, --sort-vertices)
// and by "local index" (the common 1D partition's order, in which parents are written); the row's
// frontier and the CSR's entries use "row-range positions" (partition/process_grid.hpp).
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "bfs/engine.hpp"
#include "bfs/engine_spec.hpp"
#include "bfs/level_profiler.hpp"
#include "core/bitmap.hpp"
#include "core/packed_ints.hpp"
#include "core/padded.hpp"
#include "exchange/fold_codec.hpp"
#include "exchange/found_parents_codec.hpp"
#include "exchange/packet_buckets.hpp"
#include "exchange/slice_gather.hpp"
#include "graph/csr_2d.hpp"
#include "partition/process_grid.hpp"

namespace g500 {

// Their registry rows (bfs/registry.cpp).
EngineSpec top_down_2d_engine();
EngineSpec hybrid_2d_engine();

// Whether hybrid-2d's two frontiers share one storage (`choice`, with automatic made concrete):
// automatic shares where the smaller frontier's bytes reach the rank's arcs (R >= 256 on a square
// grid at edgefactor 16), where the tail's at-once search would cost more memory than the graph
// can spare. The run and its memory estimate both take it from here.
bool shares_frontiers(FrontierStorage choice, GridShape grid, double vertices, double tuples);

// Column: the width of stored ids (--ids); Position: of a row entry, a row-range position
// (--grid-positions), no wider. The widths made: G500_2D_WIDTHS (graph/csr_2d.hpp).
template <class Column, class Position>
class Grid2D : public BfsEngine {
 public:
  Grid2D(const EngineContext& context, bool direction_optimizing);
  void build(const EdgeSource& source) override;
  void search(vertex_t root, std::span<vertex_t> parents, SearchProfile* profile) override;
  std::string layout() const override;
  // Bytes of found parents a rank may hold before its column sends them (the memory estimate's).
  static constexpr std::int64_t kFoundBudget = std::int64_t{32} << 20;
  // Whether sparse rows keep each entry's vertex index above its position, in the entry: 64-bit
  // entries whose position and index bits fit one word together (the estimate asks too).
  static bool index_in_entry(int position_bits, int index_bits) {
    return sizeof(Position) > 4 && position_bits + index_bits <= 64;
  }

 private:
  // --- Kernel 1 (grid_2d.cpp) ---
  // hybrid-2d's tables beside the graph: the vertex of each row-range position, the empty rows, and
  // each row's entry of highest degree moved to its front (a bottom-up step tests it first: it
  // finds most parents), the rest still rising.
  void build_bottom_up_tables();
  // Dense rows: the vertex of every row-range position (w_to_global_), gathered in the row; returns
  // each position's degree code.
  std::vector<std::uint8_t> gather_row_tables();
  // Sparse rows: each entry's vertex's index in its block (entry_index_, with vertex sorting), asked
  // of its owner in the row in bounded rounds; returns each entry's degree code.
  std::vector<std::uint8_t> ask_entry_vertices();

  // --- Top-down step (top_down_step.cpp) ---
  void expand(std::int64_t frontier_vertices);
  StepCounts fold(std::span<vertex_t> parents, LevelProfiler& profiler);
  // visit(u) for each frontier row u of the column range in [first, last): rows of the bitmap, or
  // places of the list (a sparse frontier, column_listed_); frontier_end() is the end of either.
  template <class Visit>
  void for_frontier_rows(local_t first, local_t last, Visit&& visit) const;
  local_t frontier_end() const;
  // The frontier rows cut into pieces of about `round` entries (piece_ends_), an exchange each.
  void plan_pieces(edge_count_t round);
  // Encodes the edges of the frontier rows [first, last) of the column range into slot `slot`,
  // claiming this rank's own targets on the spot; returns the edges it encoded for other ranks.
  std::int64_t encode_piece(local_t first, local_t last, int slot, StepCounts& counts);
  void decode_received(int slot);
  // A vertex of this rank's block, by its sorted index, reached with `parent` by a top-down step's
  // thread `thread`: only its visited bit at once; the rest (parent, bitmaps by local index,
  // counts) once the step's exchanges are done, by settle_claims, which fetches the random reads
  // ahead.
  void claim(local_t sorted, vertex_t parent, int thread);
  StepCounts settle_claims(std::span<vertex_t> parents);

  // --- Bottom-up step (bottom_up_step.cpp) ---
  // `few_to_find`: the search is in its tail (same on every rank), where the column searches all at
  // once rather than in a ring.
  StepCounts bottom_up(std::int64_t frontier_vertices, bool few_to_find, std::span<vertex_t> parents,
                       LevelProfiler& profiler);
  // The column range searched in R sub-steps, one block each, the blocks' bitmaps passed round the
  // column so that no vertex is looked for twice; returns the step's work.
  StepCounts search_ring(double sub_step_bound, std::span<vertex_t> parents, double& exchange_seconds);
  // The column range searched at once, against the column's visited bitmaps gathered, and each
  // block's finds ORed into its owner's bitmaps by one reduce-scatter: two collectives a level
  // instead of R passes, at the cost of the tries of vertices that an earlier rank of the ring
  // would have found (few, in a search's tail). Needs more than two rows.
  StepCounts search_at_once(double sub_step_bound, std::span<vertex_t> parents, double& exchange_seconds);
  // Before finds that may add `bound` bytes: the column sends those held if they could pass the
  // budget (the same decision on every rank of the column).
  void make_room_for_found(double bound, std::span<vertex_t> parents);
  double found_budget() const;
  // This rank searches block k of its column for parents: its own block (`own`) against
  // visited_local_, another against `done`, that block's bitmap of vertices with a parent.
  StepCounts search_block(int k, bool own, word_t* done, std::int64_t words, std::span<vertex_t> parents);
  template <bool Listed>  // the same, the rows with entries listed or not
  StepCounts search_block_as(int k, bool own, word_t* done, std::int64_t words, std::span<vertex_t> parents);
  // After sub-step s: the block's bitmap on to the previous rank of the column, or, after the last
  // sub-step, its changed words back to the block's owner.
  void pass_block(int s, int k);
  // The message pass_block sends back to a block's owner: the summary of changed words, the words,
  // and with two rows the parents of the vertices they add.
  void message_to_owner(int k);
  // This block's vertices that the column's other ranks found, from the message received after the
  // last sub-step: into its bitmaps (and, with two rows, their parents).
  void take_found_vertices(std::span<vertex_t> parents);
  // A bottom-up level's found vertices (next_, by local index) into the bitmaps by sorted index
  // (visited, and what the row gathers), counted.
  StepCounts mark_found();
  // The parents this search's bottom-up steps found for the column's other blocks, to their owners:
  // at the search's end, or before a rank of the column could hold more than kFoundBudget bytes of
  // them (tests: exchange_round bytes). Collective over the column.
  void send_found_parents(std::span<vertex_t> parents);
  // Collective over the column, once a bottom-up level: the most bytes of found parents any rank
  // of the column can add in one sub-step of this level. Every rank gets the same bound, so each
  // decides alone, and alike, when the column sends them (no collective per sub-step).
  double found_bytes_a_sub_step_bound() const;
  // One thread's share of a sub-step's search (block_scan.hpp), over rows with entries found by
  // bits or (Listed) from a list.
  template <bool Listed>
  struct BlockScan;

  // This block's vertex of sorted index `sorted`, by local index: hybrid-2d on dense rows reads it
  // from its table of vertices by row-range position (and drops the CSR's map), the rest from the CSR.
  local_t local_of(local_t sorted) const {
    if (!w_to_global_.empty()) return static_cast<local_t>(w_to_global_[own_w_begin_ + sorted]) - own_begin_;
    return csr_.to_local(sorted);
  }
  // An entry's row-range position: its bits under `mask` (32-bit entries hold nothing else).
  static vertex_t entry_position(Position entry, Position mask) {
    if constexpr (sizeof(Position) > 4)
      return static_cast<vertex_t>(entry & mask);
    else
      return static_cast<vertex_t>(entry);
  }
  // Sparse rows: the vertex behind an entry. Its block is its position's column's, and its index
  // there, with sorted blocks, is kept above the position in the entry's spare bits (64-bit entries
  // with room: no second array) or else in a packed table beside the entries; unsorted, it is the
  // position's offset in the block (no table at all). Raw tables, which a scan copies, so that a
  // find reloads nothing through the engine.
  struct EntryVertex {
    const Position* columns;
    const std::uint64_t* index_words;  // the packed table, or null
    int index_bits;
    int index_shift;          // the index above the position, in the entry itself; 0 if not there
    Position position_mask;   // an entry's position bits
    typename Partition2D::ColumnOfPosition column_of;
    const vertex_t* block_begin;
    vertex_t position(Position entry) const { return entry_position(entry, position_mask); }
    const void* index_address(const Position* entry) const {
      return reinterpret_cast<const char*>(index_words) +
             static_cast<std::uint64_t>(entry - columns) * static_cast<std::uint64_t>(index_bits) / 8;
    }
    vertex_t operator()(const Position* entry) const {
      const vertex_t w = position(*entry);
      const int c = column_of(w);
      vertex_t index;
      if (sizeof(Position) > 4 && index_shift) index = static_cast<vertex_t>(static_cast<std::uint64_t>(*entry) >> index_shift);
      else if (index_words) index = static_cast<vertex_t>(packed_entry(index_words, entry - columns, index_bits));
      else index = w - column_of.w_begin[c];
      return block_begin[c] + index;
    }
  };
  EntryVertex entry_vertex() const {
    return {csr_.columns.data(),           entry_index_.empty() ? nullptr : entry_index_.words(),
            entry_index_.bits(),           index_shift_,
            position_mask_,                grid_.column_of_position(),
            grid_.row_block_begins()};
  }
  vertex_t position_of(Position entry) const { return entry_position(entry, position_mask_); }
  // The vertex behind a row entry, for a parent a bottom-up step finds: dense rows from the row
  // range's table.
  vertex_t vertex_of_entry(const Position* entry) const {
    if (!w_to_global_.empty()) return static_cast<vertex_t>(w_to_global_[*entry]);
    return entry_vertex()(entry);
  }
  // Frontiers below N/32 vertices travel as lists of positions, larger ones as bitmaps.
  bool sparse(std::int64_t frontier_vertices) const {
    return sparse_allowed_ && frontier_vertices < static_cast<std::int64_t>(part_.num_vertices() / 32);
  }

  const BfsOptions& options_;
  const mpi::Comm& comm_;
  const Partition1D& part_;
  Partition2D grid_;
  mpi::Comm row_comm_, col_comm_;  // ranked by column, and by row
  bool direction_optimizing_;
  exchange::FoldCompression compression_;
  bool sparse_allowed_;
  exchange::SliceGather column_gather_;  // expand: this block's frontier to the column
  exchange::SliceGather row_gather_;     // bottom-up: this block's frontier (sorted) to the row
  exchange::PacketBuckets fold_out_;     // top-down: (u, v) to the row, by column
  // Bottom-up, [thread * R + row]: the vertices of that row's block this thread found during the
  // search, with their parents. A sub-step's finds are gathered in vertex order, as (index in the
  // block, parent's global id) in one word, the index above, with 32-bit ids, else a pair; then
  // encoded as one message (exchange/found_parents_codec.hpp) after the search's earlier ones.
  // Each vertex's bit reaches its owner with the block's bitmap at every level; the messages go
  // once, at the end, end to end.
  using FoundPair = std::conditional_t<sizeof(Column) <= 4, std::uint64_t, std::pair<std::uint64_t, std::uint64_t>>;
  static FoundPair found_pair(local_t v, Column parent) {
    if constexpr (sizeof(Column) <= 4) return (static_cast<std::uint64_t>(v) << 32) | parent;
    else return {static_cast<std::uint64_t>(v), static_cast<std::uint64_t>(parent)};
  }
  static local_t found_vertex(const FoundPair& f) {
    if constexpr (sizeof(Column) <= 4) return static_cast<local_t>(f >> 32);
    else return static_cast<local_t>(f.first);
  }
  static Column found_parent(const FoundPair& f) {
    if constexpr (sizeof(Column) <= 4) return static_cast<Column>(f);
    else return static_cast<Column>(f.second);
  }
  struct FoundList {
    std::vector<FoundPair> pairs;        // this sub-step's
    std::vector<std::uint8_t> messages;  // the search's, encoded
    void clear() {
      pairs.clear();
      messages.clear();
    }
  };
  std::vector<Padded<FoundList>> found_;
  // A sub-step's finds (a block of `count` vertices) appended to the search's messages, encoded;
  // one function whose calls are all inlined: its loop runs for every find.
  [[gnu::flatten]] void encode_found(FoundList& list, local_t count) const;
  int parent_bits_ = 1;  // of a global id
  std::int64_t connected_local_ = 0;  // this block's vertices with edges
  std::int64_t unvisited_local_ = 0;  // of those, the ones without a parent yet, this search
  double found_held_bound_ = 0;       // bytes of found parents a rank of the column may hold now

  Csr2D<Column, Position> csr_;
  edge_count_t global_entries_ = 0;
  std::vector<Column> w_to_global_;  // bottom-up, dense rows: the vertex at each row-range position
  // Bottom-up, sparse rows with sorted blocks: each entry's vertex's local index in its block, in
  // as many bits as a block's vertices need.
  PackedInts entry_index_;
  int index_shift_ = 0;                // or above each entry's position, from this bit
  Position position_mask_ = ~Position{0};  // an entry's position bits
  vertex_t own_w_begin_ = 0, own_begin_ = 0;  // this block's first row-range position and first vertex
  // Bottom-up, by row of the column range, read in order: each row's first entry, as its row-range
  // position and its vertex's global id, so that most rows are settled without a read of the row
  // itself. Only rows with entries have one (a 2D rank's rows are often empty), at the row's place
  // among them (csr_.index.rank); rows without entries are never searched. Dense rows only: sparse
  // ones hold about one entry a filled row, and the scan reads that entry (and its vertex on a hit).
  struct FirstEntry {
    Position position;
    Column vertex;
  };
  std::vector<FirstEntry> first_;

  Bitmap visited_;          // this block, by sorted index
  Bitmap visited_local_;    // the same, by local index
  Bitmap next_;             // the next frontier, this block, by local index
  Bitmap next_sorted_;      // hybrid: the same, by sorted index (what the row gathers)
  // The frontiers: the column range's, by offset in it (expand's result, read by top-down steps),
  // and the row's blocks', by row-range position (bottom-up). Two bitmaps, or (frontiers_shared_)
  // one storage the two take in turn: a level reads one of them, and the column's at-once search,
  // which reads both, is then not taken.
  Bitmap frontier_storage_[2];
  std::span<word_t> column_frontier_, row_frontier_;
  bool column_listed_ = false;  // the top-down frontier is the column gather's list, not column_frontier_
  bool frontiers_shared_ = false;

  // Exchange buffers, two slots: in a fold one is in flight while the other is filled or read.
  struct Slot {
    std::vector<std::uint8_t> send, recv;
    mpi::Counts send_counts, send_displs, recv_counts, recv_displs;
    mpi::Request request;
  };
  Slot slots_[2];
  std::vector<local_t> piece_ends_;
  // By thread: a top-down step's claims not yet settled (at most kClaimsKept), and the counts of
  // those settled.
  struct Claim {
    Column sorted, parent;
  };
  struct Claims {
    std::vector<Claim> list;
    StepCounts counts;
  };
  static constexpr std::size_t kClaimsKept = std::size_t{1} << 12;
  void settle(Claims& claims, std::span<vertex_t> parents);
  std::vector<Padded<Claims>> claimed_;
  std::span<vertex_t> parents_;  // the search's, during a top-down step
  // Bottom-up buffers for the blocks passed around the column, kept from level to level: the
  // bitmap of the block being searched, the summary of its words that other ranks changed, the
  // message out and the message in.
  struct BlockPass {
    std::vector<word_t> done, changed, message, incoming;
    std::vector<word_t> receive;             // what a sub-step's pass receives, at its largest size so far
    std::vector<FoundPair> pairs;            // two rows: the finds sent back to the block's owner
    std::vector<std::int64_t> at, found_at;  // the owner's message's index, by summary word
  };
  BlockPass pass_;
  bool one_thread_ = false;  // this search's team is one thread: bitmaps need no atomics
};

}  // namespace g500
