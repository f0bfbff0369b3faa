#pragma once
// How many CPUs this process may run on. mpirun binds each rank to one core by default, so a rank
// with two OpenMP threads may find both on one core and run many times slower with no word; the
// harness warns when the team is larger than this.
#include <sched.h>

namespace g500 {

inline int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;  // unknown
  return CPU_COUNT(&set);
}

}  // namespace g500
