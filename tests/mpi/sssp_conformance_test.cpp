// Kernel 3's conformance test, as the BFS engines have theirs: every --sssp-* mode and a few deltas,
// given on the command line and run through the harness (kernel 1, the timed loop, validation of
// every search), at 1 and 2 threads (and, through ctest, several rank counts). Each run must
// validate every search and count, root by root, the edges the default settings count.
#include <gtest/gtest.h>
#include <omp.h>

#include <string>
#include <vector>

#include "app/command_line.hpp"
#include "bfs/engine_choice.hpp"
#include "harness/benchmark.hpp"

namespace g500 {
namespace {

std::vector<std::vector<std::string>> every_mode() {
  std::vector<std::vector<std::string>> modes = {{}};
  for (const char* fusion : {"auto", "on", "off"}) modes.push_back({"--sssp-fusion", fusion});
  for (const char* heavy : {"auto", "push", "pull"}) modes.push_back({"--sssp-heavy", heavy});
  for (const char* whole : {"auto", "on", "off"}) modes.push_back({"--sssp-whole-rows", whole});
  for (const char* tail : {"on", "off"}) modes.push_back({"--sssp-tail", tail});
  for (const char* prune : {"on", "off"}) modes.push_back({"--sssp-prune", prune});
  for (const char* replicas : {"auto", "whole", "hubs", "ghosts"}) modes.push_back({"--sssp-replicas", replicas});
  modes.push_back({"--sssp-replicas", "hubs", "--sssp-heavy", "pull", "--sssp-fusion", "on"});
  modes.push_back({"--sssp-replicas", "ghosts", "--sssp-heavy", "pull", "--sssp-fusion", "on"});
  // Every count and item through MPI_Alltoallv (the sparse exchange is auto's from 2 ranks).
  modes.push_back({"--sssp-exchange", "alltoallv"});
  modes.push_back({"--sssp-exchange", "alltoallv", "--sssp-replicas", "ghosts"});
  for (const char* delta : {"0.1", "1e-3", "2"}) modes.push_back({"--delta", delta});
  modes.push_back({"--sssp-heavy", "pull", "--sssp-fusion", "on", "--sssp-prune", "off", "--sssp-tail", "off"});
  return modes;
}

// The harness's records of a --kernels sssp run with `mode`. Collective.
std::vector<RootRecord> run_kernel_3(const std::vector<std::string>& mode) {
  std::vector<std::string> args = {"g500", "--scale", "10", "--roots", "6", "--kernels", "sssp", "--quiet"};
  args.insert(args.end(), mode.begin(), mode.end());
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  Command cmd = parse_command_line(static_cast<int>(argv.size()), argv.data());
  const mpi::Comm world = mpi::Comm::world();
  return run_benchmark(cmd.run, world).sssp_roots;
}

class SsspConformance : public ::testing::TestWithParam<int> {};

TEST_P(SsspConformance, EveryModeValidatesThroughTheHarness) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(GetParam());
  const std::vector<RootRecord> expect = run_kernel_3({});
  ASSERT_EQ(expect.size(), 6u);
  for (const std::vector<std::string>& mode : every_mode()) {
    std::string shown;
    for (const std::string& word : mode) shown += " " + word;
    const std::vector<RootRecord> got = run_kernel_3(mode);
    ASSERT_EQ(got.size(), expect.size()) << shown;
    for (std::size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].result, "valid") << shown;
      EXPECT_EQ(got[k].root, expect[k].root) << shown;
      EXPECT_EQ(got[k].nedge, expect[k].nedge) << shown << ", root " << got[k].root;
    }
  }
  omp_set_num_threads(saved);
}

INSTANTIATE_TEST_SUITE_P(Sssp, SsspConformance, ::testing::Values(1, 2));

}  // namespace
}  // namespace g500
