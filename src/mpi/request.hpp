#pragma once
// A pending non-blocking operation, made by Comm::isend, irecv_any or ialltoallv_raw (mpi/comm.hpp). A
// receive's bytes are counted as traffic when test() or wait() sees it complete; a send's when it
// is posted. One owner, never copied; a request still pending when destroyed is waited for (a
// send) or cancelled (a receive), so no buffer is freed under MPI.
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace g500::mpi {

// What a completed receive brought.
struct Arrival {
  int source = -1;  // rank in the communicator the receive was posted on
  int tag = -1;
  std::int64_t bytes = 0;
};

class Request {
 public:
  Request() = default;
  Request(Request&& other) noexcept : req_(other.req_), receive_(other.receive_), keep_(std::move(other.keep_)) {
    other.req_ = MPI_REQUEST_NULL;
  }
  Request& operator=(Request&& other) noexcept;
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;
  ~Request() { release(); }

  bool pending() const { return req_ != MPI_REQUEST_NULL; }
  // True when the operation has completed (or none was pending); a completed receive fills `got`.
  bool test(Arrival* got = nullptr);
  void wait(Arrival* got = nullptr);

 private:
  friend class Comm;
  void release();
  void completed(const MPI_Status& status, Arrival* got);

  MPI_Request req_ = MPI_REQUEST_NULL;
  bool receive_ = false;
  // What a non-blocking collective reads until it completes (its int counts), held with it.
  std::shared_ptr<std::vector<std::vector<int>>> keep_;
};

}  // namespace g500::mpi
