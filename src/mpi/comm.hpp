#pragma once
// The one MPI wrapper: RAII environment and communicators, typed collectives, sub-communicators.
// Kernels talk to MPI only through here, and every call that moves data is counted (mpi/traffic.hpp).
// Calls are made from one thread at a time; the thread level is the one the engine asked for.
#include <mpi.h>

#include <climits>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "mpi/request.hpp"
#include "mpi/traffic.hpp"

namespace g500::mpi {

// MPI's thread support levels, weakest first.
enum class ThreadLevel { single, funneled, serialized, multiple };
const char* to_string(ThreadLevel level);

class Environment {
 public:
  // Initialises MPI with at least `required` (throws when the library cannot give it) and the
  // traffic counters.
  Environment(int& argc, char**& argv, ThreadLevel required = ThreadLevel::funneled);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;
};

enum class Op { sum, min, max, lor, bor };

namespace detail {
MPI_Op to_mpi(Op op);
// A contiguous MPI type of sizeof(T) bytes, made once per T: lets any trivially copyable T travel.
template <class T>
MPI_Datatype bytes_type() {
  static const MPI_Datatype type = [] {
    MPI_Datatype t;
    MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &t);
    MPI_Type_commit(&t);
    return t;
  }();
  return type;
}
template <class T>
MPI_Datatype arithmetic_type() {
  if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, std::int64_t>) return MPI_INT64_T;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return MPI_UINT64_T;
  else if constexpr (std::is_same_v<T, std::int32_t>) return MPI_INT32_T;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return MPI_UINT32_T;
  else if constexpr (std::is_same_v<T, std::uint8_t>) return MPI_UINT8_T;
  else static_assert(sizeof(T) == 0, "no MPI type for T");
}
int checked_count(std::int64_t n);
}  // namespace detail

// Whether this MPI library says it can read and write CUDA device memory (Open MPI's extension).
bool cuda_aware();
// The MPI library's name and version, first line ("Open MPI v4.1.4"), and the standard it
// implements ("3.1"), for --version. Callable before MPI is initialised.
std::string library_version();
std::string standard_version();

class Comm {
 public:
  static Comm world();
  static Comm self();
  Comm(Comm&& other) noexcept
      : comm_(other.comm_), owned_(other.owned_), rank_(other.rank_), size_(other.size_),
        world_ranks_(std::move(other.world_ranks_)) {
    other.owned_ = false;
  }
  Comm& operator=(Comm&&) = delete;
  Comm(const Comm&) = delete;
  ~Comm();

  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm raw() const { return comm_; }
  bool is_root() const { return rank_ == 0; }

  void barrier() const {
    traffic().record(OpKind::barrier, 0, 0, 0, 0);
    MPI_Barrier(comm_);
  }
  // Ends the whole job: for an error only some ranks can see.
  [[noreturn]] void abort(int code) const;

  // Collective. Ranks with the same color form one communicator, ordered by key (then rank).
  Comm split(int color, int key) const;
  // Collective. Ranks that share this node's memory.
  Comm split_shared() const;
  // The rank in MPI_COMM_WORLD of rank r of this communicator.
  int world_rank(int r) const { return world_ranks_.empty() ? r : world_ranks_[r]; }

  template <class T>
  T allreduce(T value, Op op) const {
    count_reduction(sizeof(T));
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, detail::arithmetic_type<T>(), detail::to_mpi(op), comm_);
    return value;
  }
  template <class T>
  void allreduce_inplace(std::span<T> values, Op op) const {
    count_reduction(values.size_bytes());
    MPI_Allreduce(MPI_IN_PLACE, values.data(), detail::checked_count(values.size()),
                  detail::arithmetic_type<T>(), detail::to_mpi(op), comm_);
  }
  // Element-wise reduction of every rank's `values`, of which rank r gets counts[r] elements
  // (in rank order) in `mine`. Counted as a reduction: the values go out once, a part comes back.
  template <class T>
  void reduce_scatter(std::span<const T> values, std::span<T> mine, const std::vector<int>& counts, Op op) const {
    count_reduction(values.size_bytes());
    MPI_Reduce_scatter(values.data(), mine.data(), counts.data(), detail::arithmetic_type<T>(), detail::to_mpi(op),
                       comm_);
  }
  template <class T>
  void broadcast(std::span<T> values, int root) const {
    count_broadcast(values.size_bytes(), root);
    MPI_Bcast(values.data(), detail::checked_count(values.size()), detail::bytes_type<T>(), root, comm_);
  }
  template <class T>
  std::vector<T> allgather(const T& value) const {
    std::vector<T> out(size_);
    count_gather(sizeof(T), std::vector<int>(size_, 1), sizeof(T));
    MPI_Allgather(&value, 1, detail::bytes_type<T>(), out.data(), 1, detail::bytes_type<T>(), comm_);
    return out;
  }
  // Every rank contributes `mine` (counts[rank] items); `out` gets all slices at `displs`.
  template <class T>
  void allgatherv(std::span<const T> mine, T* out, const std::vector<int>& counts,
                  const std::vector<int>& displs) const {
    count_gather(mine.size_bytes(), counts, sizeof(T));
    MPI_Allgatherv(mine.data(), detail::checked_count(mine.size()), detail::bytes_type<T>(), out,
                   counts.data(), displs.data(), detail::bytes_type<T>(), comm_);
  }
  // allgatherv with every rank's slice already in place: `buffer` holds counts[r] items of rank r
  // at displs[r], and this rank's part is sent from there.
  template <class T>
  void allgatherv_inplace(T* buffer, const std::vector<int>& counts, const std::vector<int>& displs) const {
    count_gather(static_cast<std::size_t>(counts[rank_]) * sizeof(T), counts, sizeof(T));
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, counts.data(), displs.data(), detail::bytes_type<T>(),
                   comm_);
  }
  // Personalized all-to-all: send[displs[r] .. + send_counts[r]) goes to rank r. `recv` gets what
  // arrived, ordered by source rank (resized, its capacity reused); returns the receive counts.
  template <class T>
  std::vector<int> alltoallv_into(std::span<const T> send, const std::vector<int>& send_counts,
                                  std::vector<T>& recv) const {
    const std::vector<int> recv_counts = alltoall_counts(send_counts);
    std::int64_t total = 0;
    for (int c : recv_counts) total += c;
    recv.resize(total);
    alltoallv_raw<T>(send.data(), send_counts, recv.data(), recv_counts);
    return recv_counts;
  }

  // Point to point, non-blocking: `data` goes to rank `dest` with `tag` (data must outlive req).
  // Counted as sent when posted; an empty message counts as a message of 0 bytes.
  template <class T>
  void isend(std::span<const T> data, int dest, int tag, Request& req) const {
    static_assert(std::is_trivially_copyable_v<T>);
    req = Request();
    count_point_to_point_send(data.size_bytes(), dest);
    MPI_Isend(data.data(), detail::checked_count(data.size_bytes()), MPI_BYTE, dest, tag, comm_, &req.req_);
  }
  // A receive of at most buffer.size() items from any rank, with any tag (so that messages from
  // one sender are taken in the order it sent them); counted when it completes.
  template <class T>
  void irecv_any(std::span<T> buffer, Request& req) const {
    static_assert(std::is_trivially_copyable_v<T>);
    req = Request();
    req.receive_ = true;
    MPI_Irecv(buffer.data(), detail::checked_count(buffer.size_bytes()), MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, comm_,
              &req.req_);
  }

  // Waits for a message from `source` (any tag) and returns how many items of T it holds, leaving
  // it to a receive.
  template <class T>
  std::size_t probe_count(int source) const {
    MPI_Status status;
    MPI_Probe(source, MPI_ANY_TAG, comm_, &status);
    int bytes = 0;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    return static_cast<std::size_t>(bytes) / sizeof(T);
  }

  // How many items each rank will send this one, given what this one sends each rank.
  std::vector<int> alltoall_counts(const std::vector<int>& send_counts) const {
    std::vector<int> recv_counts(size_, 0);
    count_uniform_alltoall(sizeof(int));
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm_);
    return recv_counts;
  }
  // alltoallv between raw buffers, which may be device memory when MPI is CUDA-aware.
  template <class T>
  void alltoallv_raw(const T* send, const std::vector<int>& send_counts, T* recv,
                     const std::vector<int>& recv_counts) const {
    alltoallv_displaced(send, send_counts, displacements(send_counts), recv, recv_counts, displacements(recv_counts));
  }

  // alltoallv_raw with the displacements given (items may leave gaps in `recv`).
  template <class T>
  void alltoallv_displaced(const T* send, const std::vector<int>& send_counts, const std::vector<int>& send_displs,
                           T* recv, const std::vector<int>& recv_counts, const std::vector<int>& recv_displs) const {
    static_assert(std::is_trivially_copyable_v<T>);
    count_alltoallv(send_counts, recv_counts, sizeof(T));
    MPI_Alltoallv(send, send_counts.data(), send_displs.data(), detail::bytes_type<T>(), recv, recv_counts.data(),
                  recv_displs.data(), detail::bytes_type<T>(), comm_);
  }

  // alltoallv_raw, non-blocking: `req` completes it. The buffers and all four vectors must outlive
  // req. Counted when posted.
  template <class T>
  void ialltoallv_raw(const T* send, const std::vector<int>& send_counts, const std::vector<int>& send_displs, T* recv,
                      const std::vector<int>& recv_counts, const std::vector<int>& recv_displs, Request& req) const {
    static_assert(std::is_trivially_copyable_v<T>);
    req = Request();
    count_alltoallv(send_counts, recv_counts, sizeof(T));
    MPI_Ialltoallv(send, send_counts.data(), send_displs.data(), detail::bytes_type<T>(), recv, recv_counts.data(),
                   recv_displs.data(), detail::bytes_type<T>(), comm_, &req.req_);
  }

  // `text` as held by rank `root`, on every rank.
  std::string broadcast_string(const std::string& text, int root) const;

  // Exclusive prefix sums of counts, checked against int overflow.
  static std::vector<int> displacements(const std::vector<int>& counts);

 private:
  Comm(MPI_Comm comm, bool owned);
  // Traffic accounting of each operation kind (see mpi/traffic.hpp for what is counted).
  void count_reduction(std::size_t bytes) const;
  void count_point_to_point_send(std::size_t bytes, int dest) const;
  void count_broadcast(std::size_t bytes, int root) const;
  void count_gather(std::size_t my_bytes, const std::vector<int>& counts, std::size_t item_bytes) const;
  void count_uniform_alltoall(std::size_t bytes_per_peer) const;
  void count_alltoallv(const std::vector<int>& send_counts, const std::vector<int>& recv_counts,
                       std::size_t item_bytes) const;

  MPI_Comm comm_;
  bool owned_;
  int rank_ = 0;
  int size_ = 1;
  std::vector<int> world_ranks_;  // world rank of each rank; empty when this is the world
};

// Ends the whole job at once for an error only this rank has met (a file that shrank or changed
// under it, a failed read): runs the hooks of at_job_abort (staging files removed), writes
// "g500: error: <message> (rank R)" and aborts every rank. Throwing instead would unwind this rank
// into a collective call (a file's close) that the other ranks, waiting elsewhere, never join.
[[noreturn]] void abort_job(const std::string& message);
// Adds a hook abort_job runs first; it must only release resources (at most 4 hooks).
void at_job_abort(void (*hook)());

}  // namespace g500::mpi
