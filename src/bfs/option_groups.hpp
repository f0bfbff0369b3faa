#pragma once
// Kernel 2's option groups (graph/kernel_spec.hpp's OptionGroupFor): each group's command-line
// registration, checks and JSON in one place.
#include "bfs/bfs_options.hpp"
#include "graph/kernel_spec.hpp"

namespace g500 {

using OptionGroup = OptionGroupFor<BfsOptions>;

extern const OptionGroup kDirectionGroup;
extern const OptionGroup kBottomUpGroup;
extern const OptionGroup kIdsGroup;
extern const OptionGroup kCoalescingGroup;
extern const OptionGroup kDeviceGroup;
extern const OptionGroup kGridGroup;
extern const OptionGroup kNodeGroup;

}  // namespace g500
