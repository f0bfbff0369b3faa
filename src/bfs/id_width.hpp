#pragma once
// Engines are class templates over the stored id width; this makes the one the run needs:
// Engine<std::uint32_t> whenever N allows it (or --ids 32 asks), else Engine<vertex_t>.
#include <cstdint>
#include <memory>
#include <utility>

#include "bfs/engine.hpp"

namespace g500 {

// Arguments after the context go to the engine's constructor too.
template <template <class> class Engine, class... Args>
std::unique_ptr<BfsEngine> make_for_id_width(const EngineContext& context, Args&&... args) {
  if (use_32_bit_ids(context.options.ids, context.part.num_vertices())) {
    return std::make_unique<Engine<std::uint32_t>>(context, std::forward<Args>(args)...);
  }
  return std::make_unique<Engine<vertex_t>>(context, std::forward<Args>(args)...);
}

// Bytes of one stored id in such an engine, for its memory estimate.
inline int id_bytes(const BfsOptions& options, double num_vertices) {
  return use_32_bit_ids(options.ids, static_cast<std::int64_t>(num_vertices)) ? 4 : 8;
}

}  // namespace g500
