// GoogleTest main for one or many MPI ranks: every rank runs every test; only rank 0 prints, and
// the exit status is non-zero on all ranks if any rank failed.
#include <gtest/gtest.h>

#include "mpi/comm.hpp"

int main(int argc, char** argv) {
  g500::mpi::Environment env(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  const g500::mpi::Comm world = g500::mpi::Comm::world();
  if (!world.is_root()) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  return world.allreduce(failed, g500::mpi::Op::max);
}
