#pragma once
// The one place a run settles what its options leave open, once the problem's size and the rank
// count are known and before anything is allocated: the BFS engine (--bfs auto), the stored id
// width (--ids), kernel 3's replicas (--sssp-replicas) and the validation batch. Every later stage
// (kernel 1, the engines, the estimates, the report) reads the settled options and decides nothing
// again. main's run, `g500 plan` and the tests that make engines all come through here.
#include <functional>
#include <string>

#include "harness/run_options.hpp"

namespace g500 {

// What the choices depend on.
struct ProblemSize {
  double vertices = 0;  // N
  double tuples = 0;    // M, input tuples in the whole list
  int ranks = 1;
  int threads = 0;  // OpenMP threads a rank (0: this process's)
};

struct ResolvedRun {
  // The options as they run: a named engine, ids 32 or 64, replicas whole or hubs, the batch
  // that fits. auto_candidates stays as parsed (the report says the engine was chosen by auto).
  RunOptions options;
  std::string rule_engine;  // --bfs auto: its rule's pick for the rank count; else the engine named
  int batch_asked = 1;      // the validation batch before the memory had its say
};

// `fits(bytes a rank)`: whether every node holds the ranks' need (collective when it asks the
// nodes, so every rank calls it alike). --bfs auto takes its rule's engine when the run fits with
// a batch of one, else the first other candidate that does, else the rule's (which the memory
// check then refuses); the batch shrinks to fit, never the run. Throws UserError for --ids 32 on
// more than 2^32 vertices.
ResolvedRun resolve(const RunOptions& asked, const ProblemSize& size, const std::function<bool(double)>& fits);

// The same with no memory limit: for estimates and tests that make engines without a machine.
RunOptions resolved_options(const RunOptions& asked, const ProblemSize& size);

}  // namespace g500
