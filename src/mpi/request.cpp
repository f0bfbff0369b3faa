#include "mpi/request.hpp"

#include "mpi/traffic.hpp"

namespace g500::mpi {

Request& Request::operator=(Request&& other) noexcept {
  if (this != &other) {
    release();
    req_ = other.req_;
    receive_ = other.receive_;
    keep_ = std::move(other.keep_);
    other.req_ = MPI_REQUEST_NULL;
  }
  return *this;
}

bool Request::test(Arrival* got) {
  if (req_ == MPI_REQUEST_NULL) return true;
  int done = 0;
  MPI_Status status;
  MPI_Test(&req_, &done, &status);
  if (done) completed(status, got);
  return done != 0;
}

void Request::wait(Arrival* got) {
  if (req_ == MPI_REQUEST_NULL) return;
  MPI_Status status;
  MPI_Wait(&req_, &status);
  completed(status, got);
}

void Request::completed(const MPI_Status& status, Arrival* got) {
  if (!receive_) return;
  int bytes = 0;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  traffic().record(OpKind::point_to_point, 0, 0, 1, bytes);
  if (got) *got = {status.MPI_SOURCE, status.MPI_TAG, bytes};
}

void Request::release() {
  if (req_ == MPI_REQUEST_NULL) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (receive_) MPI_Cancel(&req_);
  MPI_Wait(&req_, MPI_STATUS_IGNORE);
}

}  // namespace g500::mpi
