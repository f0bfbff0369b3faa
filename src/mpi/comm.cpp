#include "mpi/comm.hpp"

#include <cstdlib>

namespace g500::mpi {

Environment::Environment(int& argc, char**& argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  if (provided < MPI_THREAD_FUNNELED) {
    throw std::runtime_error("the MPI library does not support MPI_THREAD_FUNNELED");
  }
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
  }
  return MPI_SUM;
}

int checked_count(std::int64_t n) {
  if (n > INT_MAX) throw std::runtime_error("MPI message of " + std::to_string(n) + " items exceeds INT_MAX");
  return static_cast<int>(n);
}
}  // namespace detail

Comm::Comm(MPI_Comm comm, bool owned) : comm_(comm), owned_(owned) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
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

Comm Comm::split_shared() const {
  MPI_Comm node;
  MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  return Comm(node, true);
}

std::string Comm::broadcast_string(const std::string& text, int root) const {
  std::int64_t length = static_cast<std::int64_t>(text.size());
  MPI_Bcast(&length, 1, MPI_INT64_T, root, comm_);
  std::string out = rank_ == root ? text : std::string(length, '\0');
  MPI_Bcast(out.data(), detail::checked_count(length), MPI_CHAR, root, comm_);
  return out;
}

std::vector<int> Comm::displacements(const std::vector<int>& counts) {
  std::vector<int> displs(counts.size());
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    displs[i] = detail::checked_count(sum);
    sum += counts[i];
  }
  detail::checked_count(sum);
  return displs;
}

}  // namespace g500::mpi
