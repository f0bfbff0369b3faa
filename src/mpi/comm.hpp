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

#include "core/big_vector.hpp"
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
// The most items one MPI call moves to or from one place (a count or displacement MPI takes as
// int): INT_MAX, or less while a test forces the chunked paths (set_count_limit).
std::int64_t count_limit();
}  // namespace detail

// Counts and displacements of a collective, per rank, in items: 64-bit whatever the scale. Calls
// whose counts or displacements pass what MPI's int holds are made in chunks.
using Counts = std::vector<std::int64_t>;

// For tests: a smaller limit per MPI call, so that small runs take the chunked paths (0: MPI's own).
void set_count_limit(std::int64_t items);

// Whether this MPI library says it can read and write CUDA device memory (Open MPI's extension).
bool cuda_aware();
// The MPI library's name and version, first line ("Open MPI v4.1.4"), and the standard it
// implements ("3.1"), for --version. Callable before MPI is initialised.
std::string library_version();
std::string standard_version();

// A message Comm::iprobe found, not yet received.
struct Probed {
  int source = -1;  // rank in the communicator
  int tag = 0;
  std::int64_t items = 0;
};

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
  void reduce_scatter(std::span<const T> values, std::span<T> mine, const Counts& counts, Op op) const {
    count_reduction(values.size_bytes());
    reduce_scatter_windows(values.data(), mine.data(), counts, detail::arithmetic_type<T>(), op, sizeof(T));
  }
  template <class T>
  void broadcast(std::span<T> values, int root) const {
    count_broadcast(values.size_bytes(), root);
    MPI_Bcast(values.data(), detail::checked_count(values.size()), detail::bytes_type<T>(), root, comm_);
  }
  template <class T>
  std::vector<T> allgather(const T& value) const {
    std::vector<T> out(size_);
    count_gather(sizeof(T), Counts(size_, 1), sizeof(T));
    MPI_Allgather(&value, 1, detail::bytes_type<T>(), out.data(), 1, detail::bytes_type<T>(), comm_);
    return out;
  }
  // Every rank contributes `mine` (counts[rank] items); `out` gets all slices at `displs`.
  template <class T>
  void allgatherv(std::span<const T> mine, T* out, const Counts& counts, const Counts& displs) const {
    count_gather(mine.size_bytes(), counts, sizeof(T));
    allgatherv_windows(mine.data(), out, counts, displs, detail::bytes_type<T>(), sizeof(T));
  }
  // allgatherv with every rank's slice already in place: `buffer` holds counts[r] items of rank r
  // at displs[r], and this rank's part is sent from there.
  template <class T>
  void allgatherv_inplace(T* buffer, const Counts& counts, const Counts& displs) const {
    count_gather(static_cast<std::size_t>(counts[rank_]) * sizeof(T), counts, sizeof(T));
    allgatherv_windows(nullptr, buffer, counts, displs, detail::bytes_type<T>(), sizeof(T));
  }
  // Personalized all-to-all: send[displs[r] .. + send_counts[r]) goes to rank r. `recv` gets what
  // arrived, ordered by source rank (resized, its capacity reused); returns the receive counts.
  template <class T>
  Counts alltoallv_into(std::span<const T> send, const Counts& send_counts, std::vector<T>& recv) const {
    const Counts recv_counts = alltoall_counts(send_counts);
    std::int64_t total = 0;
    for (const std::int64_t c : recv_counts) total += c;
    resize_for_overwrite(recv, static_cast<std::size_t>(total));
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

  // Point to point, synchronous mode, non-blocking: as isend, but `req` completes only once the
  // receiver has matched the message (the sparse exchange's sign that it arrived).
  template <class T>
  void issend(std::span<const T> data, int dest, int tag, Request& req) const {
    static_assert(std::is_trivially_copyable_v<T>);
    req = Request();
    count_point_to_point_send(data.size_bytes(), dest);
    MPI_Issend(data.data(), detail::checked_count(data.size()), detail::bytes_type<T>(), dest, tag, comm_, &req.req_);
  }
  // A message with `tag` from any rank, waiting to be received: true and `got` filled when one is
  // there, without waiting. (MPI_Improbe would also hold it for this caller only; SMPI lacks it, and
  // a communicator that one thread alone receives on needs no more.)
  template <class T>
  bool iprobe(int tag, Probed& got) const {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, tag, comm_, &flag, &status);
    if (!flag) return false;
    int items = 0;
    MPI_Get_count(&status, detail::bytes_type<T>(), &items);
    got = {status.MPI_SOURCE, tag, items};
    return true;
  }
  // Receives the message iprobe found into `into` (room for got.items items): the next one from
  // its source with its tag, which MPI keeps in the order sent. Counted as received.
  template <class T>
  void recv(const Probed& got, T* into) const {
    MPI_Recv(into, detail::checked_count(got.items), detail::bytes_type<T>(), got.source, got.tag, comm_,
             MPI_STATUS_IGNORE);
    count_point_to_point_receive(static_cast<std::size_t>(got.items) * sizeof(T));
  }
  // A barrier that does not block: `req` completes once every rank has entered it.
  void ibarrier(Request& req) const {
    req = Request();
    traffic().record(OpKind::barrier, 0, 0, 0, 0);
    MPI_Ibarrier(comm_, &req.req_);
  }
  // A communicator of the same ranks whose messages never meet this one's. Collective.
  Comm dup() const;

  // One step of a ring: `data` to rank `dest` while at most recv.size() items come from rank
  // `source`, in one call; returns the items that came. Counted as one call that sends and receives.
  template <class T>
  std::size_t sendrecv(std::span<const T> data, int dest, std::span<T> recv, int source) const {
    static_assert(std::is_trivially_copyable_v<T>);
    return sendrecv_bytes(data.data(), data.size_bytes(), dest, recv.data(), recv.size_bytes(), source) / sizeof(T);
  }

  // How many items each rank will send this one, given what this one sends each rank. Each count
  // travels with its sender's total, so that every rank learns how many items the next alltoallv
  // moves in all; when they fit what MPI's int holds, that alltoallv needs no agreement of its own.
  Counts alltoall_counts(const Counts& send_counts) const;
  // alltoallv between raw buffers, which may be device memory when MPI is CUDA-aware.
  template <class T>
  void alltoallv_raw(const T* send, const Counts& send_counts, T* recv, const Counts& recv_counts) const {
    alltoallv_displaced(send, send_counts, displacements(send_counts), recv, recv_counts, displacements(recv_counts));
  }

  // alltoallv_raw with the displacements given (items may leave gaps in `recv`).
  template <class T>
  void alltoallv_displaced(const T* send, const Counts& send_counts, const Counts& send_displs, T* recv,
                           const Counts& recv_counts, const Counts& recv_displs) const {
    static_assert(std::is_trivially_copyable_v<T>);
    count_alltoallv(send_counts, recv_counts, sizeof(T));
    alltoallv_any(send, send_counts, send_displs, recv, recv_counts, recv_displs, detail::bytes_type<T>(), sizeof(T),
                  nullptr);
  }

  // alltoallv_raw, non-blocking: `req` completes it. The buffers and all four vectors must outlive
  // req. Counted when posted. Past the per-call limit it runs at once, in chunks, and req is done.
  template <class T>
  void ialltoallv_raw(const T* send, const Counts& send_counts, const Counts& send_displs, T* recv,
                      const Counts& recv_counts, const Counts& recv_displs, Request& req) const {
    static_assert(std::is_trivially_copyable_v<T>);
    req = Request();
    count_alltoallv(send_counts, recv_counts, sizeof(T));
    alltoallv_any(send, send_counts, send_displs, recv, recv_counts, recv_displs, detail::bytes_type<T>(), sizeof(T),
                  &req);
  }

  // `text` as held by rank `root`, on every rank.
  std::string broadcast_string(const std::string& text, int root) const;

  // Exclusive prefix sums of counts.
  static Counts displacements(const Counts& counts);

 private:
  Comm(MPI_Comm comm, bool owned);
  // Traffic accounting of each operation kind (see mpi/traffic.hpp for what is counted).
  void count_reduction(std::size_t bytes) const;
  void count_point_to_point_send(std::size_t bytes, int dest) const;
  void count_point_to_point_receive(std::size_t bytes) const;
  std::size_t sendrecv_bytes(const void* data, std::size_t bytes, int dest, void* recv, std::size_t capacity,
                             int source) const;
  void count_broadcast(std::size_t bytes, int root) const;
  void count_gather(std::size_t my_bytes, const Counts& counts, std::size_t item_bytes) const;
  void count_uniform_alltoall(std::size_t bytes_per_peer) const;
  // The same bytes of the operation about to be recorded to each other rank of this communicator.
  void to_each_other_rank(std::int64_t bytes) const;
  void count_alltoallv(const Counts& send_counts, const Counts& recv_counts, std::size_t item_bytes) const;
  // The collectives themselves, in one MPI call when every count and displacement fits the limit,
  // else in chunks (mpi/comm.cpp says how). `mine` null: in place.
  void allgatherv_windows(const void* mine, void* out, const Counts& counts, const Counts& displs, MPI_Datatype type,
                          std::size_t item_bytes) const;
  void reduce_scatter_windows(const void* values, void* mine, const Counts& counts, MPI_Datatype type, Op op,
                              std::size_t item_bytes) const;
  void alltoallv_any(const void* send, const Counts& send_counts, const Counts& send_displs, void* recv,
                     const Counts& recv_counts, const Counts& recv_displs, MPI_Datatype type, std::size_t item_bytes,
                     Request* req) const;

  MPI_Comm comm_;
  bool owned_;
  // The items the next alltoallv moves in all, as alltoall_counts learnt them (-1: not known). The
  // same on every rank, as the calls are.
  mutable std::int64_t next_total_ = -1;
  int rank_ = 0;
  int size_ = 1;
  std::vector<int> world_ranks_;  // world rank of each rank; empty for the world's ranks in order
};

// Ends the whole job at once for an error only this rank has met (a file that shrank or changed
// under it, a failed read): runs the hooks of at_job_abort (staging files removed), writes
// "g500: error: <message> (rank R)" and aborts every rank. Throwing instead would unwind this rank
// into a collective call (a file's close) that the other ranks, waiting elsewhere, never join.
[[noreturn]] void abort_job(const std::string& message);
// Adds a hook abort_job runs first; it must only release resources (at most 4 hooks).
void at_job_abort(void (*hook)());
// Makes a failed allocation anywhere (any thread, inside a parallel region, in big_vector) end the
// job as abort_job does, with "g500: error: out of memory on rank R": a std::new_handler that
// first frees a reserve kept for it, so the message and the hooks need no memory of their own.
void abort_job_when_out_of_memory();

}  // namespace g500::mpi
