#include "mpi/comm.hpp"

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // MPIX_CUDA_AWARE_SUPPORT (Open MPI)
#endif

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>

namespace g500::mpi {
namespace {

std::unique_ptr<TrafficCounters> g_traffic;

int to_mpi(ThreadLevel level) {
  switch (level) {
    case ThreadLevel::single: return MPI_THREAD_SINGLE;
    case ThreadLevel::funneled: return MPI_THREAD_FUNNELED;
    case ThreadLevel::serialized: return MPI_THREAD_SERIALIZED;
    case ThreadLevel::multiple: return MPI_THREAD_MULTIPLE;
  }
  return MPI_THREAD_FUNNELED;
}

}  // namespace

const char* to_string(ThreadLevel level) {
  switch (level) {
    case ThreadLevel::single: return "single";
    case ThreadLevel::funneled: return "funneled";
    case ThreadLevel::serialized: return "serialized";
    case ThreadLevel::multiple: return "multiple";
  }
  return "?";
}

TrafficCounters& traffic() { return *g_traffic; }

Environment::Environment(int& argc, char**& argv, ThreadLevel required) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, to_mpi(required), &provided);
#ifdef G500_SMPI
  // SimGrid's SMPI answers MPI_THREAD_SINGLE whatever is asked. A simulated rank runs one OpenMP
  // thread (g500-smpi is built and run so), which is the only thread that calls MPI: what funneled
  // asks for holds.
  if (provided < to_mpi(required) && required != ThreadLevel::funneled) {
#else
  if (provided < to_mpi(required)) {
#endif
    throw std::runtime_error(std::string("the MPI library does not support MPI_THREAD_") + to_string(required));
  }
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  g_traffic = std::make_unique<TrafficCounters>(size, rank);
}

Environment::~Environment() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

namespace detail {
MPI_Op to_mpi(Op op) {
  switch (op) {
    case Op::sum: return MPI_SUM;
    case Op::min: return MPI_MIN;
    case Op::max: return MPI_MAX;
    case Op::lor: return MPI_LOR;
    case Op::bor: return MPI_BOR;
  }
  return MPI_SUM;
}

int checked_count(std::int64_t n) {
  if (n > INT_MAX) throw std::runtime_error("MPI message of " + std::to_string(n) + " items exceeds INT_MAX");
  return static_cast<int>(n);
}

namespace {
std::int64_t forced_limit = 0;  // set_count_limit's, or 0
}  // namespace

std::int64_t count_limit() { return forced_limit > 0 ? forced_limit : INT_MAX; }
}  // namespace detail

void set_count_limit(std::int64_t items) { detail::forced_limit = items; }

Comm::Comm(MPI_Comm comm, bool owned) : comm_(comm), owned_(owned) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  if (comm_ != MPI_COMM_WORLD) {
    // Peers are counted by world rank, so sub-communicators feed the same matrix.
    MPI_Group mine, world;
    MPI_Comm_group(comm_, &mine);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    std::vector<int> local(size_);
    for (int r = 0; r < size_; ++r) local[r] = r;
    world_ranks_.resize(size_);
    MPI_Group_translate_ranks(mine, size_, local.data(), world, world_ranks_.data());
    MPI_Group_free(&mine);
    MPI_Group_free(&world);
    // The world's ranks in the world's order (a copy of the world): counted as the world is.
    int world_size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    bool identity = size_ == world_size;
    for (int r = 0; identity && r < size_; ++r) identity = world_ranks_[r] == r;
    if (identity) world_ranks_.clear();
  }
}

Comm Comm::world() { return Comm(MPI_COMM_WORLD, false); }
Comm Comm::self() { return Comm(MPI_COMM_SELF, false); }

Comm::~Comm() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owned_ && !finalized) MPI_Comm_free(&comm_);
}

void Comm::abort(int code) const {
  MPI_Abort(comm_, code);
  std::exit(code);
}

namespace {
void (*g_abort_hooks[4])() = {};
}  // namespace

void at_job_abort(void (*hook)()) {
  for (auto& slot : g_abort_hooks) {
    if (slot == hook) return;
    if (!slot) {
      slot = hook;
      return;
    }
  }
}

void abort_job(const std::string& message) {
  for (auto* hook : g_abort_hooks)
    if (hook) hook();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "g500: error: %s (rank %d)\n", message.c_str(), rank);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

namespace {

char* g_out_of_memory_reserve = nullptr;
std::atomic<bool> g_out_of_memory_said{false};

void out_of_memory() {
  // One thread tells; any other that runs short meanwhile waits for the abort.
  if (g_out_of_memory_said.exchange(true)) {
    while (true) pause();
  }
  delete[] g_out_of_memory_reserve;
  g_out_of_memory_reserve = nullptr;
  for (auto* hook : g_abort_hooks)
    if (hook) hook();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "g500: error: out of memory on rank %d\n", rank);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

}  // namespace

void abort_job_when_out_of_memory() {
  if (!g_out_of_memory_reserve) g_out_of_memory_reserve = new char[1 << 20];
  std::set_new_handler(out_of_memory);
}

Comm Comm::split(int color, int key) const {
  MPI_Comm part;
  MPI_Comm_split(comm_, color, key, &part);
  return Comm(part, true);
}

Comm Comm::dup() const {
  MPI_Comm copy;
  MPI_Comm_dup(comm_, &copy);
  return Comm(copy, true);
}

Comm Comm::split_shared() const {
  MPI_Comm node;
  MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  return Comm(node, true);
}

std::string Comm::broadcast_string(const std::string& text, int root) const {
  std::int64_t length = static_cast<std::int64_t>(text.size());
  broadcast(std::span(&length, 1), root);
  std::string out = rank_ == root ? text : std::string(length, '\0');
  broadcast(std::span(out.data(), out.size()), root);
  return out;
}

void Comm::count_reduction(std::size_t bytes) const {
  if (size_ == 1) return traffic().record(OpKind::allreduce, 0, 0, 0, 0);
  const std::int64_t b = static_cast<std::int64_t>(bytes);
  traffic().record(OpKind::allreduce, 1, b, 1, b);
}

void Comm::count_broadcast(std::size_t bytes, int root) const {
  const std::int64_t b = static_cast<std::int64_t>(bytes), others = size_ - 1;
  if (rank_ == root) {
    traffic().record(OpKind::broadcast, b ? others : 0, b * others, 0, 0);
    to_each_other_rank(b);
  } else {
    traffic().record(OpKind::broadcast, 0, 0, b ? 1 : 0, b);
  }
}

void Comm::count_gather(std::size_t my_bytes, const Counts& counts, std::size_t item_bytes) const {
  const std::int64_t mine = static_cast<std::int64_t>(my_bytes), others = size_ - 1;
  // Every rank's, then less this rank's: a loop without a branch, which the compiler vectorizes
  // (this runs for every gather, and a rank's counts are P long).
  std::int64_t items = 0, sources = 0;
  for (int r = 0; r < size_; ++r) {
    items += counts[r];
    sources += counts[r] > 0;
  }
  items -= counts[rank_];
  sources -= counts[rank_] > 0;
  to_each_other_rank(mine);
  traffic().record(OpKind::allgather, mine ? others : 0, mine * others, sources,
                   items * static_cast<std::int64_t>(item_bytes));
}

void Comm::to_each_other_rank(std::int64_t bytes) const {
  if (bytes == 0) return;
  // The world's ranks (the world, or a copy in its order): once for all of them.
  if (world_ranks_.empty()) return traffic().to_every_peer(bytes);
  for (int r = 0; r < size_; ++r)
    if (r != rank_) traffic().to_peer(world_rank(r), bytes);
}

void Comm::count_uniform_alltoall(std::size_t bytes_per_peer) const {
  const std::int64_t b = static_cast<std::int64_t>(bytes_per_peer), others = size_ - 1;
  to_each_other_rank(b);
  traffic().record(OpKind::alltoall, others, b * others, others, b * others);
}

void Comm::count_alltoallv(const Counts& send_counts, const Counts& recv_counts, std::size_t item_bytes) const {
  const std::int64_t item = static_cast<std::int64_t>(item_bytes);
  std::int64_t sent = 0, received = 0, to = 0, from = 0;
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) continue;
    const std::int64_t out = send_counts[r] * item;
    sent += out;
    received += recv_counts[r] * item;
    to += send_counts[r] > 0;
    from += recv_counts[r] > 0;
    if (out) traffic().to_peer(world_rank(r), out);
  }
  traffic().record(OpKind::alltoallv, to, sent, from, received);
}

bool cuda_aware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

std::string library_version() {
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(library, &length);
  const std::string text(library, static_cast<std::size_t>(length));
  return text.substr(0, text.find_first_of("\n,"));
}

std::string standard_version() {
  int major = 0, minor = 0;
  MPI_Get_version(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

void Comm::count_point_to_point_send(std::size_t bytes, int dest) const {
  if (dest != rank_ && bytes) traffic().to_peer(world_rank(dest), static_cast<std::int64_t>(bytes));
  traffic().record(OpKind::point_to_point, 1, static_cast<std::int64_t>(bytes), 0, 0);
}

void Comm::count_point_to_point_receive(std::size_t bytes) const {
  traffic().record(OpKind::point_to_point, 0, 0, 1, static_cast<std::int64_t>(bytes));
}

std::size_t Comm::sendrecv_bytes(const void* data, std::size_t bytes, int dest, void* recv, std::size_t capacity,
                                 int source) const {
  MPI_Status status;
  MPI_Sendrecv(data, detail::checked_count(bytes), MPI_BYTE, dest, 0, recv, detail::checked_count(capacity), MPI_BYTE,
               source, 0, comm_, &status);
  int got = 0;
  MPI_Get_count(&status, MPI_BYTE, &got);
  if (dest != rank_ && bytes) traffic().to_peer(world_rank(dest), static_cast<std::int64_t>(bytes));
  traffic().record(OpKind::point_to_point, 1, static_cast<std::int64_t>(bytes), 1, got);
  return static_cast<std::size_t>(got);
}

Counts Comm::displacements(const Counts& counts) {
  Counts displs(counts.size());
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    displs[i] = sum;
    sum += counts[i];
  }
  return displs;
}

namespace {

bool all_fit(const Counts& a, const Counts& b, std::int64_t limit) {
  for (std::size_t r = 0; r < a.size(); ++r)
    if (a[r] > limit || b[r] > limit || a[r] + b[r] > limit) return false;
  return true;
}

std::vector<int> as_int(const Counts& values) { return std::vector<int>(values.begin(), values.end()); }

// Each rank's part of window [base, top) of a buffer in which rank r's slice is [displs[r],
// displs[r] + counts[r]): its count, and where it starts in the window.
void window_parts(const Counts& counts, const Counts& displs, std::int64_t base, std::int64_t top,
                  std::vector<int>& window_counts, std::vector<int>& window_displs) {
  for (std::size_t r = 0; r < counts.size(); ++r) {
    const std::int64_t first = std::max(displs[r], base), last = std::min(displs[r] + counts[r], top);
    window_counts[r] = static_cast<int>(std::max<std::int64_t>(0, last - first));
    window_displs[r] = window_counts[r] ? static_cast<int>(first - base) : 0;
  }
}

}  // namespace

// Past the limit, windows of `out`: each call gathers the items of [base, base + limit), every rank
// sending the part of its slice that lies inside, so that no count or displacement passes it.
void Comm::allgatherv_windows(const void* mine, void* out, const Counts& counts, const Counts& displs,
                              MPI_Datatype type, std::size_t item_bytes) const {
  const std::int64_t limit = detail::count_limit();
  if (all_fit(counts, displs, limit)) {
    MPI_Allgatherv(mine ? mine : MPI_IN_PLACE, static_cast<int>(mine ? counts[rank_] : 0),
                   mine ? type : MPI_DATATYPE_NULL, out, as_int(counts).data(), as_int(displs).data(), type, comm_);
    return;
  }
  std::int64_t end = 0;
  for (int r = 0; r < size_; ++r) end = std::max(end, displs[r] + counts[r]);
  std::vector<int> window_counts(size_), window_displs(size_);
  for (std::int64_t base = 0; base < end; base += limit) {
    window_parts(counts, displs, base, std::min(end, base + limit), window_counts, window_displs);
    char* const window = static_cast<char*>(out) + base * static_cast<std::int64_t>(item_bytes);
    if (mine) {
      const std::int64_t from = std::max<std::int64_t>(0, base - displs[rank_]);
      MPI_Allgatherv(static_cast<const char*>(mine) + from * static_cast<std::int64_t>(item_bytes),
                     window_counts[rank_], type, window, window_counts.data(), window_displs.data(), type, comm_);
    } else {
      MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, window, window_counts.data(), window_displs.data(), type,
                     comm_);
    }
  }
}

// Past the limit, windows of `values` as for allgatherv: each call reduces [base, base + limit) and
// scatters the parts of the ranks' blocks that lie inside.
void Comm::reduce_scatter_windows(const void* values, void* mine, const Counts& counts, MPI_Datatype type, Op op,
                                  std::size_t item_bytes) const {
  const std::int64_t limit = detail::count_limit();
  const Counts displs = displacements(counts);
  const std::int64_t end = displs.back() + counts.back();
  if (end <= limit) {
    MPI_Reduce_scatter(values, mine, as_int(counts).data(), type, detail::to_mpi(op), comm_);
    return;
  }
  std::vector<int> window_counts(size_), window_displs(size_);
  const std::int64_t item = static_cast<std::int64_t>(item_bytes);
  for (std::int64_t base = 0; base < end; base += limit) {
    window_parts(counts, displs, base, std::min(end, base + limit), window_counts, window_displs);
    const std::int64_t into = std::max<std::int64_t>(0, base - displs[rank_]);
    MPI_Reduce_scatter(static_cast<const char*>(values) + base * item, static_cast<char*>(mine) + into * item,
                       window_counts.data(), type, detail::to_mpi(op), comm_);
  }
}

Counts Comm::alltoall_counts(const Counts& send_counts) const {
  std::int64_t total = 0;
  for (const std::int64_t c : send_counts) total += c;
  std::vector<std::int64_t> out(2 * static_cast<std::size_t>(size_)), in(out.size());
  for (int r = 0; r < size_; ++r) {
    out[2 * r] = send_counts[r];
    out[2 * r + 1] = total;
  }
  count_uniform_alltoall(2 * sizeof(std::int64_t));
  MPI_Alltoall(out.data(), 2, MPI_INT64_T, in.data(), 2, MPI_INT64_T, comm_);
  Counts recv_counts(size_);
  next_total_ = 0;
  for (int r = 0; r < size_; ++r) {
    recv_counts[r] = in[2 * r];
    next_total_ += in[2 * r + 1];
  }
  return recv_counts;
}

// Past the limit, rounds of MPI_Alltoallw: in round k each pair moves items [k * limit, (k + 1) *
// limit) of its part, described by a datatype that carries the part's 64-bit byte offset, so that
// the int counts and displacements MPI takes stay 1 and 0.
void Comm::alltoallv_any(const void* send, const Counts& send_counts, const Counts& send_displs, void* recv,
                         const Counts& recv_counts, const Counts& recv_displs, MPI_Datatype type,
                         std::size_t item_bytes, Request* req) const {
  const std::int64_t limit = detail::count_limit();
  // Every count and displacement fits when all items together do, which alltoall_counts told
  // every rank; else the ranks agree whether each one's own fit.
  const std::int64_t total = std::exchange(next_total_, -1);
  const bool fit = (total >= 0 && total <= limit) ||
                   allreduce<int>(all_fit(send_counts, send_displs, limit) && all_fit(recv_counts, recv_displs, limit)
                                      ? 0
                                      : 1,
                                  Op::max) == 0;
  if (fit) {
    const std::vector<int> sc = as_int(send_counts), sd = as_int(send_displs), rc = as_int(recv_counts),
                           rd = as_int(recv_displs);
    if (req) {
      // The int vectors must outlive the request: kept with it.
      req->keep_ = std::make_shared<std::vector<std::vector<int>>>(std::vector<std::vector<int>>{sc, sd, rc, rd});
      const auto& k = *req->keep_;
      MPI_Ialltoallv(send, k[0].data(), k[1].data(), type, recv, k[2].data(), k[3].data(), type, comm_, &req->req_);
    } else {
      MPI_Alltoallv(send, sc.data(), sd.data(), type, recv, rc.data(), rd.data(), type, comm_);
    }
    return;
  }
  std::int64_t most = 0;
  for (int r = 0; r < size_; ++r) most = std::max({most, send_counts[r], recv_counts[r]});
  const std::int64_t rounds = allreduce<std::int64_t>((most + limit - 1) / limit, Op::max);
  const std::vector<int> ones(size_, 1), zeros(size_, 0);
  std::vector<MPI_Datatype> send_types(size_), recv_types(size_);
  const auto part_type = [&](std::int64_t count, std::int64_t displ, std::int64_t round) {
    const std::int64_t first = std::min(count, round * limit), items = std::min(count, first + limit) - first;
    MPI_Datatype t;
    int length = static_cast<int>(items);
    MPI_Aint offset = static_cast<MPI_Aint>((displ + first) * static_cast<std::int64_t>(item_bytes));
    MPI_Type_create_hindexed(1, &length, &offset, type, &t);
    MPI_Type_commit(&t);
    return t;
  };
  for (std::int64_t k = 0; k < rounds; ++k) {
    for (int r = 0; r < size_; ++r) {
      send_types[r] = part_type(send_counts[r], send_displs[r], k);
      recv_types[r] = part_type(recv_counts[r], recv_displs[r], k);
    }
    MPI_Alltoallw(send, ones.data(), zeros.data(), send_types.data(), recv, ones.data(), zeros.data(),
                  recv_types.data(), comm_);
    for (int r = 0; r < size_; ++r) {
      MPI_Type_free(&send_types[r]);
      MPI_Type_free(&recv_types[r]);
    }
  }
}

}  // namespace g500::mpi
