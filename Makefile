# The README's two commands: `make run` (default benchmark) and `make test`.
BUILD      ?= build
BUILD_ASAN ?= build-asan
BUILD_FUZZ ?= build-fuzz
BUILD_SMPI ?= build-smpi
FUZZ_SECONDS ?= 20
NP         ?= 2
SCALE      ?= 20
JOBS       ?= $(shell nproc)

# Every mpirun goes through scripts/mpirun (oversubscription, binding, root: written once there).
MPIRUN     := $(CURDIR)/scripts/mpirun

.PHONY: deps configure build g500 build-asan fuzz sim run check test clean

deps:
	./scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The benchmark binary alone: what `make run` needs, without the tests.
g500: configure
	cmake --build $(BUILD) -j $(JOBS) --target g500

build-asan: deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DG500_SANITIZE=ON >/dev/null
	cmake --build $(BUILD_ASAN) -j $(JOBS) --target unit_tests

# The graph file parsers under libFuzzer (clang), each for FUZZ_SECONDS from the seeds; new inputs
# go to the build directory, never into the repository.
fuzz: deps
	cmake -S tests/fuzz -B $(BUILD_FUZZ) -DCMAKE_CXX_COMPILER=clang++ >/dev/null
	cmake --build $(BUILD_FUZZ) -j $(JOBS)
	for p in edge_list matrix_market binary; do \
	  mkdir -p $(BUILD_FUZZ)/corpus/$$p && \
	  $(BUILD_FUZZ)/fuzz_$$p -max_total_time=$(FUZZ_SECONDS) -seed=1 $(BUILD_FUZZ)/corpus/$$p \
	    tests/fuzz/seeds/$$p > $(BUILD_FUZZ)/$$p.log 2>&1 || { tail -n 40 $(BUILD_FUZZ)/$$p.log; exit 1; }; \
	  echo "fuzz_$$p: $$(tail -n 1 $(BUILD_FUZZ)/$$p.log)"; \
	done

# g500-smpi: the same sources for SimGrid's simulated clusters (sim/, docs/scale.md).
sim: deps
	cmake -S sim -B $(BUILD_SMPI) -DCMAKE_CXX_COMPILER=smpicxx >/dev/null
	cmake --build $(BUILD_SMPI) -j $(JOBS)

run: g500
	OMP_NUM_THREADS=1 $(MPIRUN) -np $(NP) $(BUILD)/g500 --scale $(SCALE) --json $(BUILD)/result.json

# The quick loop while working: one Release build, the unit tests and the MPI tests at -np 1 and 2
# (a couple of minutes). `make test` is the whole suite CI runs.
check: build
	./scripts/check-format
	cd $(BUILD) && ctest --output-on-failure -R '^(unit|mpi_np1|mpi_np2|layers|results_index)$$'

test: build build-asan fuzz sim
	./scripts/check-format
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -L unit
	cd $(BUILD) && G500_SMPI_BINARY=$(CURDIR)/$(BUILD_SMPI)/g500-smpi ctest --output-on-failure -LE unit

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ) $(BUILD_SMPI)
