// What kernel 1 for the 2D engines decides from the graph's shape alone (the placement, how rows
// with entries are found) and what it holds: the estimates' side of graph/csr_2d.hpp, the same
// functions the build takes its choices from.
#include "graph/csr_2d.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/kronecker_initiator.hpp"
#include "exchange/rounds.hpp"
#include "graph/row_builder.hpp"

namespace g500 {

RowPlacement resolve_row_placement(RowPlacement placement, double vertices, double tuples, GridShape grid) {
  if (placement != RowPlacement::automatic) return placement;
  // The dense placement holds 16 bytes a row (offsets, and cursors or their room); the keys
  // placement 8 bytes an arc more than the columns.
  const double rows = vertices / grid.cols, arcs = 2 * tuples / (static_cast<double>(grid.rows) * grid.cols);
  return 16 * rows > 8 * arcs ? RowPlacement::sparse : RowPlacement::dense;
}

bool lists_filled_rows(FilledRows filled, RowPlacement placement, double vertices, double tuples, GridShape grid) {
  if (resolve_row_placement(placement, vertices, tuples, grid) == RowPlacement::dense) return false;
  // A list entry is a row's offset in its block, in 32 bits.
  if (vertices / (static_cast<double>(grid.rows) * grid.cols) + 64 >= 4294967296.0) {
    if (filled == FilledRows::list) throw UserError("--grid-filled-rows list needs blocks under 2^32 vertices");
    return false;
  }
  if (filled != FilledRows::automatic) return filled == FilledRows::list;
  const GraphShape shape{vertices, tuples, grid.rows * grid.cols, true};
  const double n_col = vertices / grid.cols + 64 * grid.rows;
  return 4 * filled_rows_bound(shape, grid) < 1.5 / 8 * n_col;
}

double kronecker_share_with_arcs(int scale, double tuples, double split) {
  // A vertex with k one bits is an endpoint of a tuple with probability (A+B)^(scale-k) (C+D)^k at
  // each end (B+D = C+D), so its arcs number about 2 tuples times that, and those into the share a
  // Poisson count of mean 1/split of them. The scrambling moves vertices, not degrees.
  double share = 0;
  for (int k = 0; k <= scale; ++k) {
    const double log_vertices = std::lgamma(scale + 1.0) - std::lgamma(k + 1.0) - std::lgamma(scale - k + 1.0);
    const double arcs = 2 * tuples / split * std::pow(kA + kB, scale - k) * std::pow(kC + kD, k);
    share += std::exp(log_vertices - scale * std::log(2.0)) * -std::expm1(-arcs);
  }
  return std::min(share, 1.0);
}

double filled_rows_bound(const GraphShape& shape, GridShape grid) {
  const double n_col = shape.vertices / grid.cols + 64 * grid.rows;
  const double arcs = 2 * shape.tuples / (static_cast<double>(grid.rows) * grid.cols) + 1;
  const double bound = std::min(n_col, arcs);
  const int scale = std::ilogb(shape.vertices);
  if (!shape.kronecker || shape.vertices != std::ldexp(1.0, scale)) return bound;
  const double expected = kronecker_share_with_arcs(scale, shape.tuples, grid.rows) * n_col;
  return std::min(bound, expected + 3 * std::sqrt(expected) + 64);
}

double csr_2d_build_bytes(const GraphShape& shape, GridShape grid, double id_bytes, double position_bytes,
                          RowPlacement placement, FilledRows filled) {
  return total_bytes(csr_2d_build_parts(shape, grid, id_bytes, position_bytes, placement, filled));
}

std::vector<MemoryPart> csr_2d_build_parts(const GraphShape& shape, GridShape grid, double id_bytes,
                                           double position_bytes, RowPlacement placement, FilledRows filled_rows) {
  const double vertices = shape.vertices, tuples = shape.tuples;
  const double ranks = static_cast<double>(grid.rows) * grid.cols;
  const double n_local = vertices / ranks + 64, n_col = vertices / grid.cols + 64 * grid.rows;
  const double n_row = vertices / grid.rows + 64 * grid.cols, m_local = tuples / ranks + 1;
  const double round = m_local < exchange::kBuildRound ? m_local : static_cast<double>(exchange::kBuildRound);
  const double arcs = 2 * m_local, rounds = 16 * round + 4 * 2 * 2 * id_bytes * round;
  const double blocks = (8 + 2 * id_bytes) * n_local;
  placement = resolve_row_placement(placement, vertices, tuples, grid);
  if (placement == RowPlacement::dense) {
    // The row cursors and a round's buffers go before the ids become positions; narrower positions
    // are held beside the ids for a moment then.
    const double placing = 8 * n_col + rounds, narrowing = position_bytes < id_bytes ? position_bytes * arcs : 0;
    return {{"entries (an id each)", id_bytes * arcs},
            {"row offsets", 8 * n_col},
            {placing >= narrowing ? "row cursors, a round's tuples and exchange buffers"
                                  : "entries as narrower positions, beside their ids",
             std::max(placing, narrowing)},
            {"block: degrees and sort maps", blocks},
            {"row range: each position's vertex", id_bytes * n_row}};
  }
  // The keys (a word, or a pair past 64 bits; the columns take their place) and the filled rows' offsets; the
  // sorted positions are asked in rounds (an OwnerQuery holds an owner and a slot a question, and
  // five ids: question and answer each way, and the answers kept).
  // The degrees' lengths then travel in rounds: a vertex and a length each, sent and received.
  // Offsets are 32-bit while a rank's entries number below 2^32 (with room for a quarter more than
  // the mean). Sorting the rows again (sorted blocks) holds a length a row beside the offsets: more
  // than the keys held when keys are no wider than the ids.
  // A key is kept as one word where a row of the column range and a row-range position fit one,
  // else in 12 bytes where they fit 96 bits.
  const int key_bits =
      rows::id_bits(static_cast<std::int64_t>(n_col)) + rows::id_bits(static_cast<std::int64_t>(n_row));
  const double key = key_bits <= 64 ? 8.0 : key_bits <= 96 ? 12.0 : std::max(8.0, 2 * id_bytes);
  // An owner query holds an owner, a slot and a reply (a position) a question; it answers the
  // row's own questions in place, so the questions sent and received and both ways' answers are
  // the others' share, (C - 1) / C of a round.
  const double remote = (grid.cols - 1.0) / grid.cols;
  const double asking =
      (4 + 8 + position_bytes + remote * 4 * position_bytes) * std::min(arcs, static_cast<double>(kPositionRound));
  const double lengths = 2 * 2 * id_bytes * round;
  const double offset = 1.25 * arcs < 4294967295.0 ? 4 : 8, filled = filled_rows_bound(shape, grid);
  std::vector<MemoryPart> parts = {
      {"entries' keys (then their positions, in place)", key * arcs},
      {"filled rows' offsets", offset * filled},
      lists_filled_rows(filled_rows, placement, vertices, tuples, grid)
          ? MemoryPart{"rows with entries: a sorted list", 4 * filled + 16.0 * (grid.rows + 1)}
          : MemoryPart{"filled-row bitmap", n_col / 8},
      {"round buffers: tuples, position queries, degrees", std::max({rounds, asking, lengths})},
      {"block: degrees and sort maps", blocks}};
  if (const double more = position_bytes * arcs + offset * filled - key * arcs; more > 0)
    parts.push_back({"rows sorted again: a length a row, past the keys' room", more});
  return parts;
}

}  // namespace g500
