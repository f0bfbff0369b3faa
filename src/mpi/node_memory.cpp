#include "mpi/node_memory.hpp"

#include <functional>

#include "core/memory.hpp"

namespace g500::mpi {
namespace {

constexpr const char* kWhere[] = {"a node", "a memory cgroup (its memory.max or memory.limit_in_bytes)",
                                  "a rank under its process limits (ulimit -v or -d)"};

}  // namespace

NodeShortfall worst_node_shortfall(const Comm& comm, std::int64_t bytes_per_rank) {
  // Summed in floating point: per-rank estimates near 2^63 must not wrap around.
  const double need = static_cast<double>(bytes_per_rank);
  const Comm node = comm.split_shared();
  const CgroupMemory cgroup = cgroup_memory();
  const int group_color = static_cast<int>(std::hash<std::string>{}(cgroup.group) & 0x7fffffff);
  const Comm group = node.split(group_color, node.rank());
  const double needs[] = {node.allreduce(need, Op::sum), group.allreduce(need, Op::sum), need};
  const double has[] = {static_cast<double>(available_memory_bytes()), static_cast<double>(cgroup.headroom),
                        static_cast<double>(process_memory_headroom())};
  // This rank's worst shortfall, then the job's: the largest need short of its room.
  double short_need = 0, short_has = 0, short_where = 0;
  for (int k = 0; k < 3; ++k) {
    if (needs[k] > has[k] && needs[k] > short_need) {
      short_need = needs[k];
      short_has = has[k];
      short_where = k;
    }
  }
  const double worst = comm.allreduce(short_need, Op::max);
  if (worst == 0) return {};
  const int teller = comm.allreduce(short_need == worst ? comm.rank() : comm.size(), Op::min);
  double told[] = {short_need, short_has, short_where};
  comm.broadcast(std::span<double>(told, 3), teller);
  return {told[0], told[1], kWhere[static_cast<int>(told[2])]};
}

}  // namespace g500::mpi
