#pragma once
// A kernel 2 engine's row (graph/kernel_spec.hpp): its --bfs name, one line of help, how to make
// it, how much memory it needs, the MPI thread level and the option groups it reads. Each engine
// defines its spec in its own files (NAME_engine()); src/bfs/registry.cpp lists them, a row each.
#include "bfs/engine.hpp"
#include "bfs/option_groups.hpp"
#include "graph/kernel_spec.hpp"

namespace g500 {

// EngineContext::arc_sketch is filled for an engine whose row says reads_arc_sketch.
using EngineSpec = KernelSpec<BfsEngine, EngineContext, BfsOptions>;

}  // namespace g500
