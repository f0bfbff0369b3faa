#pragma once
// Option groups: each group's command-line registration, checks and JSON in one place. The
// harness registers every group once; an engine's row lists the groups it reads, and only those
// appear in its JSON.
#include <nlohmann/json_fwd.hpp>

#include "bfs/bfs_options.hpp"

namespace CLI {
class App;
}

namespace g500 {

struct OptionGroup {
  const char* name;  // the JSON key and the --help heading
  void (*add)(CLI::App& app, BfsOptions& options);
  void (*check)(const BfsOptions& options);  // throws UserError with a one-line message
  void (*to_json)(const BfsOptions& options, nlohmann::json& out);
};

extern const OptionGroup kDirectionGroup;
extern const OptionGroup kBottomUpGroup;
extern const OptionGroup kIdsGroup;
extern const OptionGroup kCoalescingGroup;
extern const OptionGroup kDeviceGroup;
extern const OptionGroup kGridGroup;
extern const OptionGroup kNodeGroup;

}  // namespace g500
