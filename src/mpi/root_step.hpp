#pragma once
// A step only rank 0 takes (a file it alone looks at or writes) that every rank must leave with
// when it fails: the collective verdict a user error is thrown after (conventions.md, habit 7).
#include <string>

#include "core/error.hpp"
#include "mpi/comm.hpp"

namespace g500::mpi {

// Collective: rank 0 runs step(); a UserError it throws is thrown on every rank.
template <class Step>
void on_root_for_all(const Comm& comm, Step&& step) {
  std::string failure;
  if (comm.is_root()) {
    try {
      step();
    } catch (const UserError& e) {
      failure = e.what();
    }
  }
  failure = comm.broadcast_string(failure, 0);
  if (!failure.empty()) throw UserError(failure);
}

}  // namespace g500::mpi
