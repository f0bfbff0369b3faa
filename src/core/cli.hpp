#pragma once
// CLI11, included once for the whole tree. SimGrid's SMPI (g500-smpi) defines exit(x) as a macro,
// which CLI11's App::exit(error, out, err) cannot live with; g500 calls exit nowhere.
#ifdef G500_SMPI
#undef exit
#endif
#include <CLI/CLI.hpp>
