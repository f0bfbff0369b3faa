// burst-noise: what the scale lab's clock does to compute that does not change. Every simulated
// rank runs the same fixed work (a pass over its own buffer) between two collectives, `levels`
// times; SMPI times each such burst on this machine and charges it to the rank. On a cluster every
// rank's burst would take the same time; here the spread across ranks is the simulating host's,
// and a level waits for its slowest rank. bench/simulate.py noise runs it (docs/scale.md).
//
// With a buffer larger than the caches (the third argument, in KiB, a power of two), the burst reads
// one double a cache line in a scrambled order, as a rank's random reads of its graph do: then it
// also measures what the host's memory and page walks charge a rank, which grow with the ranks'
// memory together.
//
// A tool of the lab, not of g500: it calls MPI directly, with nothing of g500's to route through.
// Prints one JSON object on rank 0: the mean burst, the mean over levels of the slowest rank's
// burst, and the bursts' percentiles, all in seconds of simulated time.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int levels = argc > 1 ? std::atoi(argv[1]) : 50;
  const int passes = argc > 2 ? std::atoi(argv[2]) : 20;
  const std::size_t kib = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 32;
  if (levels < 1 || passes < 1 || kib == 0 || (kib & (kib - 1)) != 0) {
    if (rank == 0) std::fprintf(stderr, "burst-noise: LEVELS and PASSES at least 1, KIB a power of two\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  std::vector<double> buffer(kib * 1024 / sizeof(double), 1.0);
  const std::size_t lines = buffer.size() / 8, mask = lines - 1;  // 8 doubles a 64-byte line
  std::vector<double> mine;
  double checksum = 0;
  for (int level = 0; level <= levels; ++level) {  // level 0 warms up and is not kept
    const double start = MPI_Wtime();
    for (int p = 0; p < passes; ++p)
      for (std::size_t i = 0; i < lines; ++i)
        checksum += buffer[((i * 40503) & mask) * 8] * p;  // odd stride: every line
    const double burst = MPI_Wtime() - start;
    MPI_Barrier(MPI_COMM_WORLD);
    if (level > 0) mine.push_back(burst);
  }
  std::vector<double> all(rank == 0 ? mine.size() * size : 0);
  MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(), static_cast<int>(mine.size()),
             MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    double sum = 0, slowest = 0;
    for (int level = 0; level < levels; ++level) {
      double most = 0;
      for (int r = 0; r < size; ++r) most = std::max(most, all[static_cast<std::size_t>(r) * levels + level]);
      slowest += most;
    }
    for (double b : all) sum += b;
    std::sort(all.begin(), all.end());
    const auto at = [&](double q) { return all[static_cast<std::size_t>(q * (all.size() - 1))]; };
    std::printf(
        "{\"ranks\": %d, \"levels\": %d, \"mean_burst\": %.9g, \"mean_slowest_burst\": %.9g, \"p50\": %.9g, "
        "\"p90\": %.9g, \"p99\": %.9g, \"max\": %.9g, \"checksum\": %.6g}\n",
        size, levels, sum / static_cast<double>(all.size()), slowest / levels, at(0.5), at(0.9), at(0.99), all.back(),
        checksum);
  }
  MPI_Finalize();
  return 0;
}
