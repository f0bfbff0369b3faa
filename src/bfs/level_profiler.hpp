#pragma once
// The per-level bookkeeping every engine shares: the level's timer, the sum over ranks of what the
// step found (which the engine needs anyway to steer the next level), this rank's traffic during
// the level, where this rank's time went, and the record appended to the search profile.
#include <cstdint>
#include <map>
#include <string>

#include "bfs/level_profile.hpp"
#include "core/timer.hpp"
#include "mpi/comm.hpp"

namespace g500 {

// What one rank's step found; summed over ranks by LevelProfiler::end_level.
struct StepCounts {
  std::int64_t discovered = 0;        // vertices that joined the tree
  std::int64_t discovered_edges = 0;  // the sum of their degrees: the next frontier's edges
  std::int64_t edges_examined = 0;    // adjacency entries looked at
  // This rank's work, never summed over ranks: bitmap words a bottom-up scan went over, and the
  // unvisited vertices whose first entry it tried (of edges_examined).
  std::int64_t words_swept = 0;
  std::int64_t first_entry_tries = 0;
  // Adds one thread's counts into the step's (called once per thread, inside a parallel region).
  void add_atomic(const StepCounts& mine) {
#pragma omp atomic
    discovered += mine.discovered;
#pragma omp atomic
    discovered_edges += mine.discovered_edges;
#pragma omp atomic
    edges_examined += mine.edges_examined;
#pragma omp atomic
    words_swept += mine.words_swept;
#pragma omp atomic
    first_entry_tries += mine.first_entry_tries;
  }
  // The work of another part of the step (a sub-step), outside any parallel region.
  void add_work(const StepCounts& part) {
    edges_examined += part.edges_examined;
    words_swept += part.words_swept;
    first_entry_tries += part.first_entry_tries;
  }
};

class LevelProfiler {
 public:
  // `profile` may be null (an untimed search): then only the sums are made.
  LevelProfiler(const mpi::Comm& comm, SearchProfile* profile) : comm_(comm), profile_(profile) {}

  void begin_level() {
    timer_.restart();
    phases_ = {};
    steps_.clear();
    if (profile_) start_ = mpi::traffic().snapshot();
  }

  // Time this rank spent in a phase other than its own work during the level.
  void add_send_wait(double s) { phases_.send_wait += s; }
  void add_poll(double s) { phases_.poll += s; }
  void add_exchange(double s) { phases_.exchange += s; }
  // An engine's own step within its compute (for example sort-unique's four steps).
  void add_step(const char* name, double s) {
    if (profile_) steps_[name] += s;
  }

  // Work of the search after its last level (hybrid-2d sends the parents its bottom-up steps found
  // for other ranks once, at the end): its time, as exchange, and its traffic are counted in the
  // last level's record, so the levels still add up to the search.
  template <class Work>
  void after_last_level(Work&& work) {
    const Timer timer;
    const mpi::TrafficSnapshot start = profile_ ? mpi::traffic().snapshot() : mpi::TrafficSnapshot{};
    work();
    if (profile_ && !profile_->empty()) {
      LevelRecord& last = profile_->back();
      const double s = timer.seconds();
      last.seconds += s;
      last.phases.exchange += s;
      const mpi::TrafficCounts traffic = mpi::traffic().snapshot().since(start);
      last.traffic.add(traffic);
      last.work.mpi_calls += traffic.calls();
    }
  }

  // Collective: the step's counts summed over ranks; records the level when profiling.
  StepCounts end_level(int level, Direction direction, std::int64_t frontier_vertices, std::int64_t frontier_edges,
                       const StepCounts& local) {
    std::int64_t sums[3] = {local.discovered, local.discovered_edges, local.edges_examined};
    const double before = timer_.seconds();
    comm_.allreduce_inplace<std::int64_t>(sums, mpi::Op::sum);
    phases_.allreduce = timer_.seconds() - before;
    phases_.compute = before - phases_.send_wait - phases_.poll - phases_.exchange;
    if (profile_) {
      LevelRecord rec;
      rec.level = level;
      rec.direction = direction;
      rec.frontier_vertices = frontier_vertices;
      rec.frontier_edges = frontier_edges;
      rec.discovered = sums[0];
      rec.edges_examined = sums[2];
      rec.seconds = timer_.seconds();
      rec.traffic = mpi::traffic().snapshot().since(start_);
      rec.work = {local.words_swept, local.first_entry_tries, local.edges_examined, rec.traffic.calls()};
      rec.phases = phases_;
      rec.steps = steps_;
      profile_->push_back(std::move(rec));
    }
    return {sums[0], sums[1], sums[2]};
  }

 private:
  const mpi::Comm& comm_;
  SearchProfile* profile_;
  Timer timer_;
  mpi::TrafficSnapshot start_;
  PhaseTimes phases_;
  std::map<std::string, double> steps_;
};

}  // namespace g500
