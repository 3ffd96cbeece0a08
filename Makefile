# Parley's entry points. `make run` builds Parley and runs the demo script; `make test` builds
# everything and runs every test (unit tests and SQL logic tests) through ctest. Both start with
# the bootstrap script, which installs what a fresh machine lacks and returns at once otherwise.

BUILD_DIR := build
JOBS := $(shell nproc)

# The targets chain bootstrap -> build -> run/test; keep them in order under `make -j`.
.NOTPARALLEL:
.PHONY: bootstrap build run test test-sanitize test-tsan fuzz clean

bootstrap:
	scripts/bootstrap.sh

# Optimized, with line tables only (-g1): stack traces and profiles name the line, and the
# build takes a third less time than with full debug information.
BUILD_FLAGS := -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"

build:
	@if [ ! -f $(BUILD_DIR)/build.ninja ]; then \
	  cmake -S . -B $(BUILD_DIR) -G Ninja $(BUILD_FLAGS); \
	fi
	ninja -C $(BUILD_DIR) -j $(JOBS)

run: bootstrap build
	$(BUILD_DIR)/parley -f examples/demo.sql

# A test that times out (tests/CMakeLists.txt gives each a limit) prints its output and runs once
# more: a rare hang shows in the log, named, without costing the whole run; a second timeout or
# any failure fails the run.
CTEST_FLAGS := --output-on-failure -j $(JOBS) --repeat after-timeout:2

test: bootstrap build
	ctest --test-dir $(BUILD_DIR) $(CTEST_FLAGS)

# Every C++ test and SQL logic test (not the Python interop suites, which check answers against
# Spark and peers rather than memory) on a build with AddressSanitizer and UndefinedBehaviorSanitizer.
# -O1 with line tables keeps the build and the run quick while stack traces name the line.
SANITIZE_FLAGS := -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1"
export ASAN_OPTIONS ?= detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS ?= suppressions=$(CURDIR)/tests/lsan.supp
# Arrow comes uninstrumented from the pyarrow wheel: its atomics and futures are invisible to
# TSan, so the accesses its own code makes through intercepted calls are not judged, and the
# handoffs it synchronizes for Parley's kernels are listed in tests/tsan.supp.
export TSAN_OPTIONS ?= halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=$(CURDIR)/tests/tsan.supp

test-sanitize: bootstrap
	@if [ ! -f build-asan/build.ninja ]; then \
	  cmake -S . -B build-asan -G Ninja $(SANITIZE_FLAGS) -DPARLEY_SANITIZE=address,undefined; \
	fi
	ninja -C build-asan -j $(JOBS)
	ctest --test-dir build-asan $(CTEST_FLAGS) -LE 'interop|lint'

# The same tests under ThreadSanitizer: every query runs its scan tasks and Acero operators on
# thread pools, and the write tests cover the commit coordinator and concurrent Delta writers.
test-tsan: bootstrap
	@if [ ! -f build-tsan/build.ninja ]; then \
	  cmake -S . -B build-tsan -G Ninja $(SANITIZE_FLAGS) -DPARLEY_SANITIZE=thread; \
	fi
	ninja -C build-tsan -j $(JOBS)
	ctest --test-dir build-tsan $(CTEST_FLAGS) -LE 'interop|lint'

# Each fuzz target (tests/fuzz) under libFuzzer with ASan and UBSan for FUZZ_SECONDS, starting
# from its committed corpus; findings land in build-fuzz/findings/<target>/ and fail the run.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= sql_parser delta_log delta_checkpoint deletion_vector text_reader plugin_loader cdc_options

fuzz:
	scripts/bootstrap.sh fuzz
	@if [ ! -f build-fuzz/build.ninja ]; then \
	  CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja $(SANITIZE_FLAGS) \
	    -DPARLEY_SANITIZE=address,undefined -DPARLEY_FUZZ=ON; \
	fi
	ninja -C build-fuzz -j $(JOBS) parley_fuzz
	scripts/fuzz.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

clean:
	rm -rf $(BUILD_DIR) build-asan build-tsan build-fuzz
