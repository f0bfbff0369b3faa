#pragma once
// The engine table: one row per BFS technique. --help, the unknown-name error, the option checks,
// the memory check, the MPI thread level and the JSON all read it. An engine is its own files,
// which define its EngineSpec (bfs/engine_spec.hpp), plus one row in registry.cpp.
#include <string>
#include <vector>

#include "bfs/engine_spec.hpp"

namespace g500 {

// Every engine, in the order --help lists them.
const std::vector<EngineSpec>& engine_table();
// Throws UserError naming the known engines.
const EngineSpec& find_engine(const std::string& name);
// "a|b|c", for messages.
std::string engine_list();

}  // namespace g500
