#include "sssp/sssp_spec.hpp"

#include <cfloat>
#include <charconv>
#include <nlohmann/json.hpp>
#include <string>

#include "core/cli.hpp"
#include "core/cli_choice.hpp"
#include "core/error.hpp"

namespace g500 {
namespace {

std::string shortest(float x) {
  char text[32];
  const std::to_chars_result r = std::to_chars(text, text + sizeof text, x);
  return std::string(text, r.ptr);
}

// --delta: any positive number a float holds.
float parse_delta(const std::string& text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const bool number = ec == std::errc() && end == text.data() + text.size() && !text.empty();
  if (!number || !(value >= FLT_MIN) || !(value <= FLT_MAX)) {
    throw UserError("--delta must be a positive number a float holds (1.2e-38 .. 3.4e38), got '" + text + "'");
  }
  return static_cast<float>(value);
}

CLI::Validator on_off() { return choice<bool>({{"on", true}, {"off", false}}); }

// Each enum option's words, read and written alike.
const Words<Fusion> kFusions = {{"auto", Fusion::automatic}, {"on", Fusion::on}, {"off", Fusion::off}};
const Words<HeavyDirection> kHeavyDirections = {
    {"auto", HeavyDirection::automatic}, {"push", HeavyDirection::push}, {"pull", HeavyDirection::pull}};
const Words<WholeRows> kWholeRows = {{"auto", WholeRows::automatic}, {"on", WholeRows::on}, {"off", WholeRows::off}};
const Words<Replicas> kReplicas = {
    {"auto", Replicas::automatic}, {"whole", Replicas::whole}, {"hubs", Replicas::hubs}, {"ghosts", Replicas::ghosts}};
const Words<SsspExchange> kExchanges = {
    {"auto", SsspExchange::automatic}, {"alltoallv", SsspExchange::alltoallv}, {"sparse", SsspExchange::sparse}};

void add_options(CLI::App& app, SsspOptions& o) {
  const char* group = "Kernel 3 (SSSP)";
  app.add_option_function<std::string>(
         "--delta", [&o](const std::string& text) { o.delta = parse_delta(text); },
         "SSSP: delta-stepping bucket width (the reference uses 0.1)")
      ->default_str(shortest(kDefaultDelta))->group(group);
  app.add_option("--sssp-fusion", o.fusion,
                 "SSSP: relax a rank's own vertices that fall back into the current bucket before the round's "
                 "exchange (bucket fusion), or one global round each; auto: on with one rank, off with several (the "
                 "others wait in the exchange while one fuses)")
      ->transform(choice(kFusions))
      ->default_str("auto")
      ->group(group);
  app.add_option("--sssp-heavy", o.heavy,
                 "SSSP: a bucket's heavy edges pushed by its settled vertices, or pulled by the unsettled ones (from "
                 "a copy of the bucket on every rank with whole replicas, by asking the owners with hubs), or auto: "
                 "whichever has less work")
      ->transform(choice(kHeavyDirections))
      ->default_str("auto")
      ->group(group);
  app.add_option("--sssp-whole-rows", o.whole_rows,
                 "SSSP: relax a vertex's heavy edges with its light ones each time a round takes it, not once after "
                 "its bucket; auto: once the search is past its dense buckets (the first bucket pushed after a pull)")
      ->transform(choice(kWholeRows))
      ->default_str("auto")
      ->group(group);
  app.add_option("--sssp-tail", o.tail,
                 "SSSP: once few vertices wait in later buckets, relax them all Bellman-Ford style in one last "
                 "bucket, or keep a bucket each")
      ->transform(on_off())->default_str("on")->group(group);
  app.add_option("--sssp-prune", o.prune,
                 "SSSP: drop relaxations toward the vertices of buckets already finished (they cannot lower a "
                 "distance) before they are sent, checked in the bits --sssp-replicas keeps, or send them all")
      ->transform(on_off())
      ->default_str("on")
      ->group(group);
  app.add_option(
         "--sssp-replicas", o.replicas,
         "SSSP: what every rank keeps of the finished vertices: whole (a bit for every vertex, N/8 bytes: "
         "pruning toward any of them, and pulling from a copy of each bucket), hubs (bits for at most 2^16 "
         "highest-degree vertices, O(N/P) a rank: pruning toward them, pulls asking the owners), ghosts (the "
         "distances of the vertices its rows reach, told by their owners as they settle, 4 bytes more an "
         "entry: pruning toward any of them, pulling from them), or auto: whole while N/8 is at most 64 MiB and the "
         "ranks are fewer than 256, else hubs")
      ->transform(choice(kReplicas))
      ->default_str("auto")
      ->group(group);
  app.add_option("--sssp-exchange", o.exchange,
                 "SSSP: how a round's relaxations reach their owners: alltoallv (after an alltoall of every count), "
                 "sparse (a message to each rank with items, then a non-blocking barrier: no work for ranks without "
                 "items), or auto: sparse from 2 ranks")
      ->transform(choice(kExchanges))
      ->default_str("auto")
      ->group(group);
}

void options_to_json(const SsspOptions& o, nlohmann::json& out) {
  out["delta"] = o.delta;
  out["sssp_fusion"] = word_of(kFusions, o.fusion);
  out["sssp_tail"] = o.tail;
  out["sssp_prune"] = o.prune;
  out["sssp_heavy"] = word_of(kHeavyDirections, o.heavy);
  out["sssp_whole_rows"] = word_of(kWholeRows, o.whole_rows);
  out["sssp_replicas"] = word_of(kReplicas, o.replicas);
  out["sssp_exchange"] = word_of(kExchanges, o.exchange);
}

// What parsing cannot see: options set by a program (tests, the lab) as well as by the command line.
void check_options(const SsspOptions& o) {
  if (!(o.delta >= FLT_MIN && o.delta <= FLT_MAX)) {
    throw UserError("--delta must be a positive number a float holds, got " + shortest(o.delta));
  }
  if (o.exchange == SsspExchange::sparse && !kSparseExchangeRuns) {
    throw UserError("--sssp-exchange sparse does not run under SimGrid's SMPI (it hangs there): use alltoallv");
  }
}

const OptionGroupFor<SsspOptions> kSsspGroup = {"sssp", add_options, check_options, options_to_json};

}  // namespace

const SsspSpec& sssp_engine() {
  // Never destroyed, as the BFS engine table (bfs/registry.cpp).
  static const SsspSpec& spec = *new SsspSpec{
      .name = "delta-stepping",
      .help =
          "distributed delta-stepping (Meyer and Sanders) on the 1D partition, with pruning, pull and bucket "
          "fusion",
      .make =
          [](const SsspContext& c) { return make_delta_stepping(c.comm, c.part, c.options, is_32_bit(c.options.ids)); },
      .memory_bytes =
          [](const GraphShape& shape, const SsspOptions& o) {
            return delta_stepping_memory_bytes(shape.vertices, shape.tuples, shape.ranks, is_32_bit(o.ids) ? 4 : 8, o);
          },
      // Only the thread that called MPI_Init calls MPI.
      .thread_level = mpi::ThreadLevel::funneled,
      .option_groups = {&kSsspGroup}};
  return spec;
}

}  // namespace g500
