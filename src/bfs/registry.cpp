#include "bfs/engine.hpp"
#include "bfs/hybrid_1d.hpp"
#include "core/error.hpp"

namespace g500 {

std::vector<std::string> engine_names() { return {"hybrid-1d"}; }

std::unique_ptr<BfsEngine> make_engine(const BfsOptions& options, const mpi::Comm& comm, const Partition1D& part) {
  if (options.engine == "hybrid-1d") return std::make_unique<Hybrid1D>(options, comm, part);
  throw UserError("unknown BFS engine '" + options.engine + "'");
}

}  // namespace g500
