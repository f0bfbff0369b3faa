#pragma once
// Memory shared by the ranks of one node (MPI-3 MPI_Win_allocate_shared): rank 0 of the node
// allocates it, every rank gets a pointer to the same bytes. The window stays in a passive-target
// epoch for its whole life, so fence() (MPI_Win_sync around a node barrier) is all it takes to
// make each rank's stores before it visible to every rank's loads after it.
#include <cstddef>

#include "mpi/comm.hpp"

namespace g500::mpi {

class SharedWindow {
 public:
  // Collective over `node`, whose ranks must share memory.
  SharedWindow(const Comm& node, std::size_t bytes);
  ~SharedWindow();
  SharedWindow(const SharedWindow&) = delete;
  SharedWindow& operator=(const SharedWindow&) = delete;

  void* base() const { return base_; }
  std::size_t bytes() const { return bytes_; }

  // Collective over the node: every store any rank made to the window before it is seen by every
  // load after it (memory barrier, node barrier, memory barrier).
  void fence() const;

 private:
  const Comm& node_;
  MPI_Win win_ = MPI_WIN_NULL;
  void* base_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace g500::mpi
