#pragma once
// Group-based message batching (paper 002 §4.4): the ranks are arranged as N rows (groups) of M,
// rank r at row r / M, column r % M. A message from s to d goes first to the relay rank in d's row
// and s's column, which batches everything its column sends to its row, then on to d. Each rank
// then talks to the N - 1 others of its column and the M - 1 others of its row, not to all N*M - 1.
#include <vector>

#include "mpi/comm.hpp"
#include "partition/process_grid.hpp"

namespace g500::exchange {

class RelayGrid {
 public:
  // Collective over comm.
  RelayGrid(const mpi::Comm& comm, GridShape shape)
      : shape_(shape), column_(comm.split(comm.rank() % shape.cols, comm.rank())),
        row_(comm.split(comm.rank() / shape.cols, comm.rank())) {}

  int rows() const { return shape_.rows; }
  int cols() const { return shape_.cols; }
  int row_of(int rank) const { return rank / shape_.cols; }
  int col_of(int rank) const { return rank % shape_.cols; }
  const mpi::Comm& column() const { return column_; }  // ranks of this column, by row
  const mpi::Comm& row() const { return row_; }        // ranks of this row, by column

 private:
  GridShape shape_;
  mpi::Comm column_, row_;
};

}  // namespace g500::exchange
