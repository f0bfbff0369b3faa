#include <stdexcept>
#include "bfs/option_groups.hpp"

#include "core/cli.hpp"
#include <nlohmann/json.hpp>

#include "core/cli_choice.hpp"
#include "core/cli_decimal.hpp"
#include "core/error.hpp"
#include "core/types.hpp"


namespace g500 {
namespace {

CLI::Validator on_off() { return choice<bool>({{"on", true}, {"off", false}}); }

// Each enum option's words, read and written alike. --ids and --grid-positions share theirs.
const Words<IdWidth> kIdWidths = {{"auto", IdWidth::automatic}, {"32", IdWidth::bits32}, {"64", IdWidth::bits64}};
const Words<DegreeOrder> kDegreeOrders = {
    {"auto", DegreeOrder::automatic}, {"on", DegreeOrder::on}, {"off", DegreeOrder::off}};
const Words<Staging> kStagings = {{"auto", Staging::automatic}, {"on", Staging::on}, {"off", Staging::off}};
const Words<FoldFormat> kFoldFormats = {{"vlq", FoldFormat::vlq}, {"none", FoldFormat::none}};
const Words<RowPlacement> kRowPlacements = {
    {"auto", RowPlacement::automatic}, {"dense", RowPlacement::dense}, {"sparse", RowPlacement::sparse}};
const Words<FilledRows> kFilledRows = {
    {"auto", FilledRows::automatic}, {"bitmap", FilledRows::bitmap}, {"list", FilledRows::list}};
const Words<FrontierStorage> kFrontierStorages = {
    {"auto", FrontierStorage::automatic}, {"apart", FrontierStorage::apart}, {"shared", FrontierStorage::shared}};

}  // namespace

const OptionGroup kDirectionGroup = {
    "direction",
    [](CLI::App& app, BfsOptions& o) {
      app.add_option("--alpha", o.direction.alpha,
                     "direction switch: go bottom-up when frontier edges > unexplored / alpha")
          ->capture_default_str()->group("Direction switching (Beamer)");
      app.add_option("--beta", o.direction.beta, "direction switch: back to top-down when frontier < N / beta")
          ->capture_default_str()->group("Direction switching (Beamer)");
    },
    [](const BfsOptions& o) {
      if (!(o.direction.alpha > 0)) throw UserError("--alpha must be positive");
      if (!(o.direction.beta > 0)) throw UserError("--beta must be positive");
    },
    [](const BfsOptions& o, nlohmann::json& out) {
      out["alpha"] = o.direction.alpha;
      out["beta"] = o.direction.beta;
    },
};

const OptionGroup kBottomUpGroup = {
    "bottom-up",
    [](CLI::App& app, BfsOptions& o) {
      app.add_option("--summary-granularity", o.bottom_up.summary_granularity,
                     "frontier bits per summary bit (power of two)")
          ->capture_default_str()->transform(decimal<int>())->group("Bottom-up steps");
      app.add_flag("--summary-check", o.bottom_up.summary_check,
                   "hybrid-1d: row scans test the summary before each frontier bit")
          ->group("Bottom-up steps");
      app.add_option("--degree-order", o.bottom_up.degree_order,
                     "hybrid-1d: renumber each rank's vertices by decreasing degree within windows of 32768 (a table "
                     "of 2 bytes a vertex on every rank); auto: on while a rank holds at least as many arcs as there "
                     "are vertices")
          ->transform(choice(kDegreeOrders))
          ->default_str("auto")
          ->group("Bottom-up steps");
    },
    [](const BfsOptions& o) {
      const int g = o.bottom_up.summary_granularity;
      if (g < 1 || g > (1 << 20) || (g & (g - 1)) != 0) {
        throw UserError("--summary-granularity must be a power of two between 1 and 2^20, got " + std::to_string(g));
      }
    },
    [](const BfsOptions& o, nlohmann::json& out) {
      out["summary_granularity"] = o.bottom_up.summary_granularity;
      out["summary_check"] = o.bottom_up.summary_check;
      out["degree_order"] = word_of(kDegreeOrders, o.bottom_up.degree_order);
    },
};

const OptionGroup kIdsGroup = {
    "ids",
    [](CLI::App& app, BfsOptions& o) {
      app.add_option("--ids", o.ids, "stored vertex id width: auto (32-bit when N <= 2^32), 32 or 64")
          ->transform(choice(kIdWidths))
          ->default_str("auto")
          ->group("Graph storage");
    },
    [](const BfsOptions&) {},
    [](const BfsOptions& o, nlohmann::json& out) { out["ids"] = word_of(kIdWidths, o.ids); },
};

const OptionGroup kCoalescingGroup = {
    "coalescing",
    [](CLI::App& app, BfsOptions& o) {
      app.add_option("--coalescing-size", o.coalescing.coalescing_size,
                     "queries per message to one rank in asynchronous top-down steps")
          ->capture_default_str()->transform(decimal<std::int64_t>())->group("Asynchronous top-down steps");
    },
    [](const BfsOptions& o) {
      const std::int64_t c = o.coalescing.coalescing_size;
      // A message is at most INT_MAX bytes of 16-byte queries.
      if (c < 1 || c > (std::int64_t{1} << 26)) {
        throw UserError("--coalescing-size must be between 1 and 2^26 queries, got " + std::to_string(c));
      }
    },
    [](const BfsOptions& o, nlohmann::json& out) { out["coalescing_size"] = o.coalescing.coalescing_size; },
};

const OptionGroup kDeviceGroup = {
    "device",
    [](CLI::App& app, BfsOptions& o) {
      app.add_option("--staging", o.device.staging,
                     "GPU engines: copy exchanges through host memory (on), hand device buffers to MPI (off: needs "
                     "CUDA-aware MPI), or off when MPI is CUDA-aware (auto)")
          ->transform(choice(kStagings))
          ->default_str("auto")
          ->group("GPU engines");
    },
    [](const BfsOptions&) {},
    [](const BfsOptions& o, nlohmann::json& out) { out["staging"] = word_of(kStagings, o.device.staging); },
};

const OptionGroup kGridGroup = {
    "grid",
    [](CLI::App& app, BfsOptions& o) {
      app.add_option("--grid", o.grid.grid, "2D process grid RxC (R*C = ranks), or auto: the most square")
          ->capture_default_str()->group("2D engines");
      app.add_option("--compress", o.grid.compress,
                     "fold wire format: vlq (delta + variable-length quantities) or none (fixed-width ids)")
          ->transform(choice(kFoldFormats))
          ->default_str("vlq")
          ->group("2D engines");
      app.add_option("--sort-vertices", o.grid.sort_vertices,
                     "renumber each block's vertices by decreasing degree for the visited bitmap (on|off)")
          ->transform(on_off())->default_str("on")->group("2D engines");
      app.add_option("--grid-rows", o.grid.rows,
                     "kernel 1's rows: a table of every row of the processor column (dense), offsets of the rows "
                     "with entries only, from sorted keys (sparse: for large grids), or the smaller (auto)")
          ->transform(choice(kRowPlacements))
          ->default_str("auto")
          ->group("2D engines");
      app.add_option("--grid-filled-rows", o.grid.filled_rows,
                     "how sparse rows find their rows with entries: a bit a row of the processor column with "
                     "counts (bitmap), a sorted list of them (list: for thousands of ranks), or the smaller (auto)")
          ->transform(choice(kFilledRows))
          ->default_str("auto")
          ->group("2D engines");
      app.add_option("--grid-frontiers", o.grid.frontiers,
                     "hybrid-2d's column and row frontiers: two bitmaps (apart), or one storage that top-down and "
                     "bottom-up levels take in turn, without the at-once search of a search's tail (shared); auto: "
                     "shared where a frontier holds a byte an arc of the rank's or more (256 grid rows on)")
          ->transform(choice(kFrontierStorages))
          ->default_str("auto")
          ->group("2D engines");
      app.add_option("--grid-positions", o.grid.positions,
                     "stored width of a row entry (a vertex's position in its processor row's range of N/R): auto "
                     "(32-bit when the range fits, even with 64-bit ids), 32 or 64 (no wider than --ids)")
          ->transform(choice(kIdWidths))
          ->default_str("auto")
          ->group("2D engines");
    },
    // The grid is checked against the rank count when the engine is made (bfs/engines/grid_2d/grid_2d.cpp).
    [](const BfsOptions&) {},
    [](const BfsOptions& o, nlohmann::json& out) {
      out["grid"] = o.grid.grid;
      out["compress"] = word_of(kFoldFormats, o.grid.compress);
      out["sort_vertices"] = o.grid.sort_vertices;
      out["grid_rows"] = word_of(kRowPlacements, o.grid.rows);
      out["grid_filled_rows"] = word_of(kFilledRows, o.grid.filled_rows);
      out["grid_frontiers"] = word_of(kFrontierStorages, o.grid.frontiers);
      out["grid_positions"] = word_of(kIdWidths, o.grid.positions);
    },
};

const OptionGroup kNodeGroup = {
    "node",
    [](CLI::App& app, BfsOptions& o) {
      const char* heading = "Node-aware communication (papers 000, 002)";
      app.add_option("--ranks-per-node", o.node.ranks_per_node,
                     "ranks per node: 0 finds the real nodes; K makes pretend nodes of K consecutive ranks (tests on "
                     "one machine)")
          ->capture_default_str()->transform(decimal<int>())->group(heading);
      app.add_flag("--node-shared", o.node.node_shared,
                   "keep the bottom-up frontier bitmaps once per node in MPI-3 shared memory")->group(heading);
      app.add_flag("--parallel-allgather", o.node.parallel_allgather,
                   "with --node-shared: every rank of a node takes part in the inter-node allgather")->group(heading);
      app.add_option("--relay", o.node.relay,
                     "top-down messages through a relay rank of an N x M arrangement of the ranks (NxM, N*M = ranks, "
                     "or auto: the most square); empty: straight to the owner")
          ->group(heading);
      app.add_option("--hubs", o.node.hubs,
                     "top-down steps: every rank keeps the visited bits of up to K highest-degree vertices, so edges "
                     "to them send no message (0: off)")
          ->capture_default_str()->transform(decimal<int>())->group(heading);
    },
    [](const BfsOptions& o) {
      if (o.node.ranks_per_node < 0) throw UserError("--ranks-per-node must be 0 (the real nodes) or positive");
      if (o.node.parallel_allgather && !o.node.node_shared) throw UserError("--parallel-allgather needs --node-shared");
      if (o.node.hubs < 0 || o.node.hubs > (1 << 24)) {
        throw UserError("--hubs must be between 0 and 2^24, got " + std::to_string(o.node.hubs));
      }
    },
    [](const BfsOptions& o, nlohmann::json& out) {
      out["ranks_per_node"] = o.node.ranks_per_node;
      out["node_shared"] = o.node.node_shared;
      out["parallel_allgather"] = o.node.parallel_allgather;
      out["hubs"] = o.node.hubs;
      out["relay"] = o.node.relay;
    },
};

}  // namespace g500
