# The README's two commands: `make run` (default benchmark) and `make test`.
BUILD      ?= build
BUILD_ASAN ?= build-asan
NP         ?= 2
SCALE      ?= 20
JOBS       ?= $(shell nproc)

# Every mpirun goes through scripts/mpirun (oversubscription, binding, root: written once there).
MPIRUN     := $(CURDIR)/scripts/mpirun

.PHONY: deps build build-asan run test clean

deps:
	./scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

build-asan: deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DG500_SANITIZE=ON >/dev/null
	cmake --build $(BUILD_ASAN) -j $(JOBS) --target unit_tests

run: build
	OMP_NUM_THREADS=1 $(MPIRUN) -np $(NP) $(BUILD)/g500 --scale $(SCALE) --json $(BUILD)/result.json

test: build build-asan
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -L unit
	cd $(BUILD) && ctest --output-on-failure -LE unit

clean:
	rm -rf $(BUILD) $(BUILD_ASAN)
