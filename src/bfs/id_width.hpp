#pragma once
// Engines are class templates over the stored id width; this makes the one the run needs:
// Engine<std::uint32_t> when the settled --ids says 32, else Engine<vertex_t>.
#include <cstdint>
#include <memory>
#include <utility>

#include "bfs/engine.hpp"

namespace g500 {

// Arguments after the context go to the engine's constructor too.
template <template <class> class Engine, class... Args>
std::unique_ptr<BfsEngine> make_for_id_width(const EngineContext& context, Args&&... args) {
  if (stores_32_bit_ids(context.options)) {
    return std::make_unique<Engine<std::uint32_t>>(context, std::forward<Args>(args)...);
  }
  return std::make_unique<Engine<vertex_t>>(context, std::forward<Args>(args)...);
}

// Bytes of one stored id in such an engine, for its memory estimate.
inline int id_bytes(const BfsOptions& options) { return stores_32_bit_ids(options) ? 4 : 8; }

}  // namespace g500
