#pragma once
// How kernel 1 places a 2D rank's rows (graph/csr_2d.hpp): with a table of every row of the
// processor column (dense, the faster while rows are few beside the arcs), or from sorted (row,
// target) keys with offsets for the rows with entries only (sparse: no table of N/C rows, for large
// grids). `automatic` is made concrete by resolve_row_placement, the same on every rank. Its own
// header: the 2D engines' options (`--grid-rows`) name it too.

namespace g500 {

enum class RowPlacement { automatic, dense, sparse };

// How sparse rows find their rows with entries (graph/sparse_rows.hpp, `--grid-filled-rows`): a bit
// a row of the column range with a count every 64 (bitmap), or a sorted list of the rows with
// entries (list: smaller once a rank's rows with entries are few beside its column range's rows,
// past a few thousand ranks). `automatic` is made concrete by resolve_filled_rows.
enum class FilledRows { automatic, bitmap, list };

}  // namespace g500
