#pragma once
// Frontier gather for bottom-up steps on a 1D partition: every rank's slice of the frontier bitmap
// (whole words, so no repacking) is allgathered into the bitmap of all N vertices, and its summary
// is rebuilt. This flat version is the step that node-shared frontiers (one copy per node) and the
// 2D column gather replace.
#include <vector>

#include "core/bitmap.hpp"
#include "mpi/comm.hpp"
#include "partition/partition_1d.hpp"

namespace g500::exchange {

class FrontierGather {
 public:
  FrontierGather(const mpi::Comm& comm, const Partition1D& part, int summary_granularity)
      : comm_(comm), all_(part.num_vertices()), summary_(part.num_vertices(), summary_granularity),
        word_counts_(comm.size()) {
    for (int r = 0; r < comm.size(); ++r) {
      word_counts_[r] = static_cast<int>(part.first_word(r + 1) - part.first_word(r));
    }
    word_displs_ = mpi::Comm::displacements(word_counts_);
  }

  // Collective: the frontier of all vertices from each rank's `local` slice.
  void gather(const Bitmap& local) {
    comm_.allgatherv<word_t>({local.data(), static_cast<std::size_t>(local.num_words())}, all_.data(), word_counts_,
                             word_displs_);
    summary_.rebuild(all_);
  }

  // The frontier as of the last gather; test the summary first, it stays in cache.
  const Bitmap& frontier() const { return all_; }
  const SummaryBitmap& summary() const { return summary_; }

 private:
  const mpi::Comm& comm_;
  Bitmap all_;
  SummaryBitmap summary_;
  std::vector<int> word_counts_, word_displs_;
};

}  // namespace g500::exchange
