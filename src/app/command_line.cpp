#include "app/command_line.hpp"

#include "core/cli.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "bfs/engine_choice.hpp"
#include "bfs/registry.hpp"
#include "core/cli_choice.hpp"
#include "core/cli_decimal.hpp"
#include "core/error.hpp"
#include "core/types.hpp"
#include "sssp/sssp_spec.hpp"

namespace g500 {
namespace {

// Returns --scale and --edgefactor, which a graph file replaces.
std::pair<CLI::Option*, CLI::Option*> add_graph_options(CLI::App& app, int& scale, int& edgefactor,
                                                        std::uint64_t& seed) {
  CLI::Option* s =
      app.add_option("-s,--scale", scale, "log2 of the number of vertices (1.." + std::to_string(kMaxScale) + ")")
          ->capture_default_str()
          ->transform(decimal<int>());
  CLI::Option* e = app.add_option("-e,--edgefactor", edgefactor, "edge tuples per vertex (>= 1)")
                       ->capture_default_str()->transform(decimal<int>());
  app.add_option("--seed", seed, "seed of the generator and of the root choice (0 .. 2^64-1)")
      ->capture_default_str()->transform(decimal<std::uint64_t>());
  return {s, e};
}

void check_graph_options(int scale, int edgefactor) {
  if (scale < 1 || scale > kMaxScale) {
    throw UserError("--scale must be between 1 and " + std::to_string(kMaxScale) + ", got " + std::to_string(scale));
  }
  if (edgefactor < 1) throw UserError("--edgefactor must be at least 1, got " + std::to_string(edgefactor));
  if (static_cast<double>(edgefactor) * std::ldexp(1.0, scale) > 9.0e18) {
    throw UserError("--edgefactor " + std::to_string(edgefactor) + " at SCALE " + std::to_string(scale) +
                    " gives more than 2^63 edges");
  }
}

// CLI11's messages can span lines; keep the first, as one line.
std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The options of the run whose meaning depends on others, kept to check them after parsing.
struct RunFlags {
  CLI::Option *input, *input_weights, *format, *relabel, *roots_file, *bfs, *validation_batch, *json, *output,
      *output_format, *comm_matrix, *energy_loop, *roots, *root;
  std::vector<std::string> kernels = {"bfs"};
  std::string energy_loop_text;
  std::vector<CLI::Option*> sssp_options;  // kernel 3's, as its group added them
  // Each BFS option group's options, as the group added them.
  std::map<const OptionGroup*, std::vector<CLI::Option*>> group_options;
};

void add_run_options(CLI::App& app, RunOptions& run, RunFlags& f) {
  const auto [scale_option, edgefactor_option] = add_graph_options(app, run.scale, run.edgefactor, run.seed);
  f.input = app.add_option("--input", run.input_path,
                           "read the graph from this file instead of generating it (docs/formats.md: binary, text "
                           "edge list, Matrix Market)")
                ->excludes(scale_option)->excludes(edgefactor_option);
  f.input_weights = app.add_option("--input-weights", run.input_weights,
                                   "the weights of a binary --input (what g500 generate --weights writes), for SSSP");
  f.format = app.add_option("--format", run.input_format, "format of --input: auto (from the extension), binary, edgelist, mtx")
                 ->capture_default_str()->transform(one_of({"auto", "binary", "edgelist", "mtx"}));
  f.root = app.add_option("--root", run.root_ids,
                          "search from this vertex (repeatable; the graph's own ids, so from 1 in Matrix Market files) "
                          "instead of --roots chosen by the seed")
               ->transform(decimal<vertex_t>())
               ->allow_extra_args(false);
  f.roots_file = app.add_option("--roots-file", run.roots_file, "search from the vertices listed in this file, one id a line");
  f.relabel = app.add_option("--relabel", run.relabel,
                             "renumber --input's ids 0..N-1 in id order: on, off, or auto (when the largest id exceeds "
                             "four times the tuple count); results keep the file's ids")
                  ->transform(choice<Relabel>({{"auto", Relabel::automatic}, {"on", Relabel::on}, {"off", Relabel::off}}))
                  ->default_str("auto");
  f.roots = app.add_option("-n,--roots", run.roots, "number of BFS roots (>= 1)")
                ->capture_default_str()
                ->transform(decimal<int>());
  std::string engines_help =
      "BFS engine:\n  auto: hybrid-2d from " + std::to_string(kAutoTwoDRanks) +
      " ranks whose grid is at most " + std::to_string(kAutoMaxGridAspect) +
      "x as wide as tall, else hybrid-1d (the scale lab's finding, docs/scale.md); only engines that read every "
      "option given";
  for (const EngineSpec& e : engine_table()) engines_help += "\n  " + e.name + ": " + e.help;
  f.bfs = app.add_option("--bfs", run.bfs.engine, engines_help)->capture_default_str();
  // Every engine's option groups, each once, and which options each added.
  for (const EngineSpec& e : engine_table()) {
    for (const OptionGroup* g : e.option_groups) {
      if (f.group_options.count(g)) continue;
      const std::size_t before = app.get_options().size();
      g->add(app, run.bfs);
      const std::vector<CLI::Option*> all = app.get_options();
      f.group_options[g].assign(all.begin() + static_cast<std::ptrdiff_t>(before), all.end());
    }
  }
  app.add_option("--kernels", f.kernels, "kernels to run over the roots, comma-separated: bfs (kernel 2), sssp (kernel 3)")
      ->delimiter(',')->transform(one_of({"bfs", "sssp"}))->default_str("bfs");
  {
    // Kernel 3's options, as its group adds them (src/sssp/sssp_spec.cpp).
    const std::size_t before = app.get_options().size();
    for (const OptionGroupFor<SsspOptions>* g : sssp_engine().option_groups) g->add(app, run.kernels.sssp_options);
    const std::vector<CLI::Option*> all = app.get_options();
    f.sssp_options.assign(all.begin() + static_cast<std::ptrdiff_t>(before), all.end());
  }
  f.validation_batch =
      app.add_option(
             "--validation-batch", run.kernels.validation_batch,
             "searches validated together, with one pass over the tuples: faster by up to that factor, for "
             "a byte (BFS) or four (SSSP) per search for each vertex on its owner; fewer when the memory is short")
          ->capture_default_str()
          ->check(CLI::Range(1, 16))
          ->transform(decimal<int>());
  app.add_flag("--skip-validation", run.skip_validation, "do not validate (the output is then marked not valid)");
  f.json = app.add_option("--json", run.json_path, "write every figure of the run to this JSON file");
  f.output = app.add_option("--output", run.output_path,
                            "write every search's tree: each reached vertex with its parent and depth (distance for "
                            "SSSP)");
  f.output_format = app.add_option("--output-format", run.output_binary,
                                   "--output as text lines or 40-byte binary records (docs/formats.md)")
                        ->transform(choice<bool>({{"text", false}, {"binary", true}}))->default_str("text");
  f.comm_matrix = app.add_flag("--comm-matrix", run.comm_matrix, "also write kernel 2's source x destination bytes to the JSON");
  app.add_flag("--measure-row-codes", run.measure_row_codes,
               "after kernel 1 (untimed), measure what the rows would take stored as sorted gaps in 7-bit byte codes "
               "(hybrid-1d, top-down-1d); the figure goes to the JSON, nothing is stored");
  app.add_option("--stats-style", run.reference_stats,
                 "the statistics block as the spec names its keys (spec), or as reference 3.0 prints them "
                 "(reference: 'bfs  harmonic_mean_TEPS:     !  ...', for scrapers written for it)")
      ->transform(choice<bool>({{"spec", false}, {"reference", true}}))->default_str("spec");
  f.energy_loop = app.add_option("--energy-loop", f.energy_loop_text,
                                 "Green Graph500: after each kernel's validated run, repeat its searches (untimed for "
                                 "TEPS) for at least this many seconds, and report the energy counters' joules, "
                                 "watts and TEPS per watt where the nodes have them (docs/energy.md)");
  app.add_option("--owner-buckets", run.owner_buckets,
                 "how the bulk exchanges keep items before they leave: per-rank buckets (a cache line for each "
                 "thread and rank), queued (one queue a thread, sorted by destination: nothing kept for each "
                 "rank), or auto (per-rank while threads x ranks <= 65536)")
      ->transform(choice<exchange::BucketLayout>({{"auto", exchange::BucketLayout::automatic},
                                                  {"per-rank", exchange::BucketLayout::per_rank},
                                                  {"queued", exchange::BucketLayout::queued}}))
      ->default_str("auto");
  app.add_flag("-q,--quiet", run.quiet, "no progress on stderr");
  // Not in --help: lets the tests watch a validation failure end to end.
  app.add_flag("--inject-fault", run.inject_fault, "testing aid: drop the root from its own tree before validating")->group("");
}

bool given(const CLI::Option* option) { return option->count() > 0; }

// The option groups the run may read: its engine's, or those of every engine auto may choose.
std::vector<const OptionGroup*> groups_read(const BfsOptions& bfs) {
  if (bfs.engine != kAutoEngine) return find_engine(bfs.engine).option_groups;
  std::vector<const OptionGroup*> groups;
  for (const std::string& name : bfs.auto_candidates)
    for (const OptionGroup* g : find_engine(name).option_groups)
      if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
  return groups;
}

std::string readers(const OptionGroup* group) {
  std::string engines;
  for (const EngineSpec& e : engine_table())
    if (std::find(e.option_groups.begin(), e.option_groups.end(), group) != e.option_groups.end())
      engines += (engines.empty() ? "" : ", ") + e.name;
  return engines;
}

[[noreturn]] void refuse(const CLI::Option* o, const std::string& why) {
  throw UserError(o->get_name() + " does not apply " + why);
}

// --bfs auto: the engines it may choose are those that read every option given.
void check_auto(RunOptions& run, const RunFlags& f) {
  std::vector<const OptionGroup*> given_groups;
  std::map<std::vector<std::string>, const CLI::Option*> by_readers;  // one given option per reader set
  for (const auto& [group, options] : f.group_options) {
    for (const CLI::Option* o : options) {
      if (!given(o)) continue;
      const std::vector<std::string> read_by = engines_reading({group});
      if (read_by.empty()) {
        refuse(o, "to --bfs auto, which chooses hybrid-1d or hybrid-2d (it is read by " + readers(group) +
                      "); name the engine with --bfs");
      }
      by_readers.emplace(read_by, o);
      given_groups.push_back(group);
      break;
    }
  }
  run.bfs.auto_candidates = engines_reading(given_groups);
  if (run.bfs.auto_candidates.empty()) {
    // Each option alone is read by some candidate, so two of them are read by different ones.
    const CLI::Option* one = by_readers.at({auto_engines()[0]});
    const CLI::Option* other = by_readers.at({auto_engines()[1]});
    throw UserError("no engine reads both " + one->get_name() + " (" + auto_engines()[0] + ") and " +
                    other->get_name() + " (" + auto_engines()[1] + ")");
  }
}

// One rule for every option: one that cannot change the run is an error that names it and why.
void check_applies(RunOptions& run, const RunFlags& f) {
  for (const CLI::Option* o : {f.input_weights, f.format, f.relabel})
    if (given(o) && !given(f.input)) refuse(o, "without --input");
  if (given(f.comm_matrix) && !given(f.json)) refuse(f.comm_matrix, "without --json, where it is written");
  if (given(f.output_format) && !given(f.output)) refuse(f.output_format, "without --output");
  for (const CLI::Option* o : f.sssp_options)
    if (given(o) && !run.kernels.sssp) refuse(o, "without --kernels sssp");
  if (!run.kernels.bfs) {
    // Without kernel 2 only the id width is read (by kernel 3).
    for (const auto& [group, options] : f.group_options)
      for (const CLI::Option* o : options)
        if (given(o) && std::string(group->name) != "ids") refuse(o, "without the BFS kernel (--kernels sssp runs none)");
    if (given(f.bfs)) refuse(f.bfs, "without the BFS kernel (--kernels sssp runs none)");
    if (run.bfs.engine == kAutoEngine) run.bfs.auto_candidates = auto_engines();
    return;
  }
  if (run.bfs.engine == kAutoEngine) return check_auto(run, f);
  const EngineSpec& engine = find_engine(run.bfs.engine);
  for (const auto& [group, options] : f.group_options) {
    if (std::find(engine.option_groups.begin(), engine.option_groups.end(), group) != engine.option_groups.end())
      continue;
    for (const CLI::Option* o : options)
      if (given(o)) refuse(o, "to --bfs " + run.bfs.engine + " (it is read by " + readers(group) + ")");
  }
}

// Paths given empty, given twice, or the same file twice; kernels and roots named twice.
void check_names(const RunOptions& run, const RunFlags& f) {
  for (const CLI::Option* o : {f.input, f.input_weights, f.roots_file, f.json, f.output}) {
    if (given(o) && o->as<std::string>().empty()) throw UserError(o->get_name() + " needs a file name, got ''");
  }
  if (!run.json_path.empty() && !run.output_path.empty()) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const bool same = fs::absolute(run.json_path).lexically_normal() == fs::absolute(run.output_path).lexically_normal() ||
                      fs::equivalent(run.json_path, run.output_path, ec);
    if (same) throw UserError("--json and --output name the same file '" + run.json_path + "'");
  }
  std::set<std::string> kernels;
  for (const std::string& k : f.kernels)
    if (!kernels.insert(k).second) throw UserError("--kernels names " + k + " twice");
  if (given(f.roots) && (given(f.root) || given(f.roots_file))) {
    throw UserError(std::string("--roots counts roots chosen by the seed, and ") +
                    (given(f.root) ? "--root" : "--roots-file") + " names them: give one");
  }
  std::set<vertex_t> roots;
  for (const vertex_t r : run.root_ids)
    if (!roots.insert(r).second) throw UserError("--root " + std::to_string(r) + " is given twice");
}

// A number option as the user typed it: a decimal number in [low, high], or UserError quoting it.
double parse_number(const std::string& name, const std::string& text, double low, double high, const char* range) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const bool number = ec == std::errc() && end == text.data() + text.size() && !text.empty();
  if (!number || !(value >= low) || !(value <= high)) {
    throw UserError(name + " must be " + range + ", got '" + text + "'");
  }
  return value;
}

// --kernels' names as the kernels to run.
void choose_kernels(const std::vector<std::string>& names, KernelChoice& kernels) {
  kernels.bfs = std::find(names.begin(), names.end(), "bfs") != names.end();
  kernels.sssp = std::find(names.begin(), names.end(), "sssp") != names.end();
}

// `g500 plan`: the machine, and the run's options that change its memory.
struct PlanFlags {
  CLI::Option* scale;
  int scale_value = 0;
  std::string memory;
  std::string gpu_memory;
  std::vector<std::string> kernels = {"bfs"};
};

CLI::App* add_plan_command(CLI::App& app, PlanOptions& plan, PlanFlags& f) {
  CLI::App* cmd = app.add_subcommand("plan", "the memory a run needs a rank, phase by phase, and the largest SCALE "
                                             "that fits a machine, by the estimate a run refuses by");
  cmd->add_option("--nodes", plan.nodes, "nodes (>= 1)")->required()->transform(decimal<std::int64_t>());
  cmd->add_option("--ranks-per-node", plan.ranks_per_node, "MPI ranks a node (>= 1)")->required()->transform(decimal<int>());
  cmd->add_option("--threads-per-rank", plan.threads_per_rank, "OpenMP threads a rank (>= 1)")
      ->capture_default_str()->transform(decimal<int>());
  cmd->add_option("--memory-per-node", f.memory,
                  "memory a node: 32GiB, 512 GiB, 24GB, 1.5T (K M G T P: powers of 1024, "
                  "KB MB GB TB PB: of 1000)")
      ->required();
  f.scale = cmd->add_option("-s,--scale", f.scale_value,
                            "also show this SCALE's phases (1.." + std::to_string(kMaxScale) + ")")
                ->transform(decimal<int>());
  cmd->add_option("-e,--edgefactor", plan.edgefactor, "edge tuples per vertex (>= 1)")
      ->capture_default_str()->transform(decimal<int>());
  cmd->add_option("--kernels", f.kernels, "kernels the run would run: bfs, sssp, or both")
      ->delimiter(',')->transform(one_of({"bfs", "sssp"}))->default_str("bfs");
  cmd->add_option("--bfs", plan.bfs.engine, "BFS engine (auto, or one of g500 --help's), its options at their defaults")
      ->capture_default_str();
  cmd->add_option("--validation-batch", plan.kernels.validation_batch, "the largest batch to try (1..16)")
      ->capture_default_str()->check(CLI::Range(1, 16))->transform(decimal<int>());
  cmd->add_option("--gpus-per-node", plan.gpus_per_node,
                  "a GPU machine: GPUs a node, one rank each (--ranks-per-node the same; --bfs a GPU engine)")
      ->transform(decimal<int>());
  cmd->add_option("--gpu-memory", f.gpu_memory, "with --gpus-per-node: memory a GPU (80GiB, 141GB)");
  return cmd;
}

// A GPU machine: one rank a GPU, a GPU engine named, and both GPU flags or neither.
void check_plan_gpus(PlanOptions& plan, const PlanFlags& f) {
  if (plan.gpus_per_node == 0 && f.gpu_memory.empty()) return;
  if (plan.gpus_per_node < 1 || f.gpu_memory.empty()) {
    throw UserError("--gpus-per-node (at least 1) and --gpu-memory go together");
  }
  plan.gpu_memory = parse_memory_size(f.gpu_memory, "--gpu-memory");
  if (plan.ranks_per_node != plan.gpus_per_node) {
    throw UserError("--ranks-per-node must equal --gpus-per-node: each rank drives one GPU");
  }
  if (plan.bfs.engine == kAutoEngine || find_engine(plan.bfs.engine).device_bytes == nullptr) {
    std::string gpu_engines;
    for (const EngineSpec& e : engine_table())
      if (e.device_bytes) gpu_engines += (gpu_engines.empty() ? "" : ", ") + e.name;
    throw UserError("--gpus-per-node needs --bfs naming a GPU engine (" +
                    (gpu_engines.empty() ? std::string("none in this build") : gpu_engines) + ")");
  }
  plan.bfs.device.planned_gpu = true;
}

void check_plan(PlanOptions& plan, const PlanFlags& f) {
  if (plan.nodes < 1) throw UserError("--nodes must be at least 1, got " + std::to_string(plan.nodes));
  if (plan.ranks_per_node < 1) throw UserError("--ranks-per-node must be at least 1, got " + std::to_string(plan.ranks_per_node));
  if (plan.threads_per_rank < 1) throw UserError("--threads-per-rank must be at least 1, got " + std::to_string(plan.threads_per_rank));
  if (static_cast<double>(plan.nodes) * plan.ranks_per_node > std::numeric_limits<int>::max()) {
    throw UserError("--nodes x --ranks-per-node is more ranks than MPI counts (2^31 - 1)");
  }
  plan.memory_per_node = parse_memory_size(f.memory);
  if (f.scale->count() > 0) plan.scale = f.scale_value;
  if (plan.scale) check_graph_options(*plan.scale, plan.edgefactor);
  else check_graph_options(1, plan.edgefactor);
  choose_kernels(f.kernels, plan.kernels);
  if (plan.bfs.engine == kAutoEngine) plan.bfs.auto_candidates = auto_engines();
  else find_engine(plan.bfs.engine);  // an unknown name is refused here
  check_plan_gpus(plan, f);
}

}  // namespace

Command parse_command_line(int argc, const char* const* argv) {
  Command cmd;
  RunOptions& run = cmd.run;
  GenerateOptions& gen = cmd.generate;

  CLI::App app{"g500: the Graph500 benchmark (generator, kernel 1, BFS kernel 2, SSSP kernel 3, validation, "
               "statistics).\n"
               "Run under MPI: mpirun -np N g500 --scale S",
               "g500"};
  app.set_help_flag("-h,--help", "print this help and exit");
  bool version = false;
  app.add_flag("--version", version, "print the version and build options (engines, CUDA, MPI) and exit");
  RunFlags flags;
  add_run_options(app, run, flags);

  CLI::App* generate = app.add_subcommand("generate", "write the Kronecker edge list to a file");
  add_graph_options(*generate, gen.scale, gen.edgefactor, gen.seed);
  CLI::Option* gen_output =
      generate->add_option("-o,--output", gen.output, "edge file: little-endian int64 pairs (docs/formats.md)")->required();
  CLI::Option* gen_weights =
      generate->add_option("--weights", gen.weights_output, "also write edge weights: little-endian float32 per edge");
  generate->add_flag("-q,--quiet", gen.quiet, "no progress on stderr");

  PlanFlags plan_flags;
  CLI::App* plan = add_plan_command(app, cmd.plan, plan_flags);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    cmd.kind = Command::Kind::help;
    cmd.help_text = app.help();
    return cmd;
  } catch (const CLI::ParseError& e) {
    throw UserError(first_line(e.what()));
  }

  if (version) {
    cmd.kind = Command::Kind::version;
    return cmd;
  }
  // A list option takes its items once, comma-separated: a second occurrence would add to the first
  // where a user means to replace it.
  if (std::count_if(argv, argv + argc, [](const char* a) {
        const std::string_view arg(a);
        return arg == "--kernels" || arg.starts_with("--kernels=");
      }) > 1)
    throw UserError("--kernels is given twice: name the kernels once, comma-separated (--kernels bfs,sssp)");
  if (generate->parsed()) {
    cmd.kind = Command::Kind::generate;
    check_graph_options(gen.scale, gen.edgefactor);
    for (const CLI::Option* o : {gen_output, gen_weights})
      if (given(o) && o->as<std::string>().empty()) throw UserError(o->get_name() + " needs a file name, got ''");
    return cmd;
  }
  if (plan->parsed()) {
    cmd.kind = Command::Kind::plan;
    check_plan(cmd.plan, plan_flags);
    return cmd;
  }
  check_graph_options(run.scale, run.edgefactor);
  choose_kernels(flags.kernels, run.kernels);
  if (given(flags.energy_loop)) {
    run.energy_loop_seconds = parse_number("--energy-loop", flags.energy_loop_text, 1e-3, 1e7,
                                           "a number of seconds from 0.001 to 10^7");
  }
  if (run.roots < 1) throw UserError("--roots must be at least 1, got " + std::to_string(run.roots));
  check_names(run, flags);
  check_applies(run, flags);
  for (const OptionGroup* g : groups_read(run.bfs)) g->check(run.bfs);
  for (const OptionGroupFor<SsspOptions>* g : sssp_engine().option_groups) g->check(run.kernels.sssp_options);
  return cmd;
}

}  // namespace g500
