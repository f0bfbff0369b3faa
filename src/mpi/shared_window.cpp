#include "mpi/shared_window.hpp"

#include <stdexcept>
#include <string>

namespace g500::mpi {

SharedWindow::SharedWindow(const Comm& node, std::size_t bytes) : node_(node), bytes_(bytes) {
  // Rank 0 holds all of it: one contiguous block, whatever the ranks' count.
  const MPI_Aint mine = node.rank() == 0 ? static_cast<MPI_Aint>(bytes) : 0;
  void* own = nullptr;
  const int err = MPI_Win_allocate_shared(mine, 1, MPI_INFO_NULL, node.raw(), &own, &win_);
  if (err != MPI_SUCCESS) {
    throw std::runtime_error("MPI_Win_allocate_shared failed for " + std::to_string(bytes) + " bytes");
  }
  MPI_Aint size = 0;
  int unit = 1;
  MPI_Win_shared_query(win_, 0, &size, &unit, &base_);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
}

SharedWindow::~SharedWindow() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || win_ == MPI_WIN_NULL) return;
  MPI_Win_unlock_all(win_);
  MPI_Win_free(&win_);
}

void SharedWindow::fence() const {
  MPI_Win_sync(win_);
  node_.barrier();
  MPI_Win_sync(win_);
}

}  // namespace g500::mpi
