#include "harness/kernel_loops.hpp"

#include <memory>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "harness/level_phases.hpp"
#include "validate/bfs_validator.hpp"
#include "validate/failure.hpp"
#include "validate/reached_tuple_counter.hpp"
#include "validate/sssp_validator.hpp"

namespace g500 {
namespace {

// `message` with the vertex ids a validator marked (validate/failure.hpp) as the graph names them;
// ids outside the graph (a parent out of range) as they were. Collective: every rank holds the
// same message, and a relabelled file's ids are looked up on their owners.
std::string in_graph_ids(const std::string& message, const EdgeSource& source, vertex_t vertices) {
  std::vector<std::string> text;  // the pieces between ids: one more than the ids
  std::vector<vertex_t> ids;
  std::size_t at = 0;
  for (std::size_t open; (open = message.find(kIdMark, at)) != std::string::npos;) {
    const std::size_t close = message.find(kIdMark, open + 1);
    if (close == std::string::npos) break;
    text.push_back(message.substr(at, open - at));
    ids.push_back(std::stoll(message.substr(open + 1, close - open - 1)));
    at = close + 1;
  }
  text.push_back(message.substr(at));
  std::vector<vertex_t> inside;
  for (const vertex_t v : ids)
    if (v >= 0 && v < vertices) inside.push_back(v);
  source.to_file_ids(inside);
  std::string out = text[0];
  for (std::size_t k = 0, next = 0; k < ids.size(); ++k) {
    out += std::to_string(ids[k] >= 0 && ids[k] < vertices ? inside[next++] : ids[k]);
    out += text[k + 1];
  }
  return out;
}

// Collective.
std::string failed_search(const char* kernel, vertex_t root, const std::string& which, const ValidationResult& r,
                          const EdgeSource& source, vertex_t vertices) {
  return in_graph_ids(std::string(kernel) + "validation failed for root " + vid(root) + " (" + which + "): rule " +
                          std::to_string(r.rule) + ": " + r.message,
                      source, vertices);
}

// --skip-validation's stand-in for a kernel's validator: the edge counts alone.
std::unique_ptr<SearchValidator> edge_counter(const KernelRun& k) {
  return reached_tuple_validator(k.source, k.part, k.comm, k.validation_batch, k.parents);
}

// Kernel 3's check runs in the room the search's buffers leave: they are released first.
class ReleasingFirst final : public SearchValidator {
 public:
  ReleasingFirst(std::unique_ptr<SearchValidator> inner, SsspEngine& sssp) : inner_(std::move(inner)), sssp_(sssp) {}
  int batch() const override { return inner_->batch(); }
  void wait(vertex_t root) override { inner_->wait(root); }
  std::vector<ValidationResult> check(vertex_t root) override {
    sssp_.release_search_buffers();
    return inner_->check(root);
  }

 private:
  std::unique_ptr<SearchValidator> inner_;
  SsspEngine& sssp_;
};

// A batch's edge counts, or ValidationFailure naming the first search that failed. Collective.
std::vector<std::int64_t> edge_counts_or_throw(const char* kernel, const std::vector<ValidationResult>& results,
                                               const std::vector<vertex_t>& roots,
                                               const std::vector<std::string>& names, const EdgeSource& source,
                                               vertex_t vertices) {
  std::vector<std::int64_t> nedge;
  for (std::size_t j = 0; j < results.size(); ++j) {
    if (!results[j].ok) throw ValidationFailure(failed_search(kernel, roots[j], names[j], results[j], source, vertices));
    nedge.push_back(results[j].nedge);
  }
  return nedge;
}

// Collective. The check of the batch `batch` (records from `first`, the search just ended last):
// each search's edge count, or ValidationFailure naming the first that failed.
std::vector<std::int64_t> check_batch(const KernelRun& run, const char* kernel, SearchValidator& checking,
                                      std::span<const RootRecord> batch, std::size_t first) {
  std::vector<vertex_t> roots;
  std::vector<std::string> names;
  for (std::size_t j = 0; j < batch.size(); ++j) {
    roots.push_back(batch[j].root);
    names.push_back("search " + std::to_string(first + j + 1) + " of " + std::to_string(run.roots.size()));
  }
  // Kernel 2's failures read as the reference's do; kernel 3's say which kernel failed.
  const std::string prefix = std::string(kernel) == "BFS" ? "" : std::string(kernel) + " ";
  return edge_counts_or_throw(prefix.c_str(), checking.check(roots.back()), roots, names, run.source,
                              run.part.num_vertices());
}

// The timed loop every kernel runs over the roots: each search timed between barriers, its
// traffic counted, then (outside the timing) `after` for the kernel's own bookkeeping and the
// validation, or with --skip-validation the edge count alone. A batch's shared pass over the
// tuples is timed once and its time split evenly over the batch's searches. Must stay whole: one
// pass of the loop is a search, its batch's check and the records the check completes.
// emit(rec) runs last, after the validation (--output).
template <class Search, class After, class Emit>
std::vector<RootRecord> timed_loop(const KernelRun& run, const char* kernel, mpi::TrafficTally& search_traffic,
                                   Search&& search, After&& after, SearchValidator& checking, Emit&& emit) {
  std::vector<RootRecord> records;
  std::size_t batch_start = 0;  // the first record of the batch under way
  const auto finish = [&](std::size_t k) {
    RootRecord& rec = records[k];
    emit(rec);
    rec.teps = rec.seconds > 0 ? static_cast<double>(rec.nedge) / rec.seconds : 0;
    run.progress.say("%s %zu/%zu root %lld: %.4f s, %lld edges, %.4g TEPS%s", kernel, k + 1, run.roots.size(),
                     static_cast<long long>(rec.shown_root), rec.seconds, static_cast<long long>(rec.nedge), rec.teps,
                     run.options.skip_validation ? "" : ", valid");
  };
  for (std::size_t k = 0; k < run.roots.size(); ++k) {
    RootRecord rec;
    rec.root = run.roots[k];
    rec.shown_root = rec.root;
    run.source.to_file_ids({&rec.shown_root, 1});
    rec.seconds = timed_collective(run.comm, [&] {
      search_traffic.start(mpi::traffic().snapshot());
      search(rec);
      search_traffic.stop(mpi::traffic().snapshot());
    });
    after(rec);
    records.push_back(std::move(rec));
    run.validation_traffic.start(mpi::traffic().snapshot());
    const bool ends_batch =
        k + 1 - batch_start == static_cast<std::size_t>(checking.batch()) || k + 1 == run.roots.size();
    if (!ends_batch) {
      records[k].validate_seconds = timed_collective(run.comm, [&] { checking.wait(records[k].root); });
      run.validation_traffic.stop(mpi::traffic().snapshot());
      continue;
    }
    std::vector<std::int64_t> nedge;
    const double shared = timed_collective(run.comm, [&] {
      const PhaseProgress phase(run.progress, std::string(run.options.skip_validation ? "counting" : "validating") +
                                                  " " + kernel + " searches " + std::to_string(batch_start + 1) + "-" +
                                                  std::to_string(k + 1));
      nedge = check_batch(run, kernel, checking, {records.begin() + batch_start, records.end()}, batch_start);
    });
    run.validation_traffic.stop(mpi::traffic().snapshot());
    for (std::size_t j = batch_start; j <= k; ++j) {
      records[j].nedge = nedge[j - batch_start];
      if (run.options.skip_validation) {
        records[j].validate_seconds = 0;
        records[j].result = "not validated";
      } else {
        records[j].validate_seconds += shared / static_cast<double>(k + 1 - batch_start);
        records[j].result = "valid";
      }
      finish(j);
    }
    batch_start = k + 1;
  }
  return records;
}

}  // namespace

std::vector<RootRecord> run_bfs_kernel(const KernelRun& k, BfsEngine& engine, PhaseTraffic& traffic,
                                       std::vector<std::int64_t>& peer_bytes, EnergyRecord& energy) {
  const std::span<vertex_t> parents = k.parents;
  const std::unique_ptr<SearchValidator> validator =
      k.options.skip_validation ? edge_counter(k)
                                : bfs_tree_validator(k.source, k.part, k.comm, k.validation_batch, parents);
  // Warm-up, untimed and unreported, so the first timed search finds the engine's buffers made.
  // It is not validated: its tree is never reported, and checking it would cost a pass over the
  // tuples that a batch of timed searches shares.
  engine.search(k.roots.front(), parents, nullptr);
  if (k.peak_before_validation.empty()) k.peak_before_validation = k.comm.allgather(peak_resident_bytes());
  mpi::TrafficTally search_traffic;
  std::vector<RootRecord> records = timed_loop(
      k, "BFS", search_traffic, [&](RootRecord& rec) { engine.search(rec.root, parents, &rec.levels); },
      [&](RootRecord& rec) {
        reduce_level_traffic(k.comm, rec.levels);
        gather_level_phases(k.comm, rec.levels);
        rec.rank_totals = gather_rank_totals(k.comm, rec.levels);
        if (k.options.inject_fault && k.part.owns(rec.root)) parents[k.part.to_local(rec.root)] = kNoParent;
      },
      *validator,
      [&](const RootRecord& rec) {
        if (!k.output) return;
        const std::vector<std::int32_t> depth = tree_depths(k.part, k.comm, rec.root, parents);
        k.output->write("bfs", rec.root, k.part, parents, [&](local_t i) { return depth[i]; });
      });
  traffic.search = search_traffic.counts();
  peer_bytes = search_traffic.peer_bytes();
  if (k.options.energy_loop_seconds > 0) {
    energy = run_energy_loop(k.comm, k.options.energy_loop_seconds, k.roots,
                             [&](vertex_t root) { engine.search(root, parents, nullptr); }, k.progress, "BFS");
  }
  return records;
}

std::vector<RootRecord> run_sssp_kernel(const KernelRun& k, SsspEngine& sssp, PhaseTraffic& traffic,
                                        EnergyRecord& energy) {
  const std::span<vertex_t> parents = k.parents;
  big_vector<float> dist(k.part.local_count());
  ReleasingFirst validator(
      k.options.skip_validation ? edge_counter(k)
                                : sssp_tree_validator(k.source, k.part, k.comm, k.validation_batch, parents, dist),
      sssp);
  sssp.search(k.roots.front(), parents, dist, nullptr);  // warm-up, as for BFS (not validated)
  if (k.peak_before_validation.empty()) k.peak_before_validation = k.comm.allgather(peak_resident_bytes());
  mpi::TrafficTally sssp_traffic;
  std::vector<RootRecord> records = timed_loop(
      k, "SSSP", sssp_traffic, [&](RootRecord& rec) { sssp.search(rec.root, parents, dist, &rec.buckets); },
      [&](RootRecord& rec) {
        if (k.options.inject_fault && k.part.owns(rec.root)) dist[k.part.to_local(rec.root)] = 1.0f;
      },
      validator,
      [&](const RootRecord& rec) {
        if (k.output) k.output->write("sssp", rec.root, k.part, parents, [&](local_t i) { return dist[i]; });
      });
  traffic.sssp = sssp_traffic.counts();
  if (k.options.energy_loop_seconds > 0) {
    energy = run_energy_loop(k.comm, k.options.energy_loop_seconds, k.roots,
                             [&](vertex_t root) { sssp.search(root, parents, dist, nullptr); }, k.progress, "SSSP");
  }
  return records;
}

}  // namespace g500
