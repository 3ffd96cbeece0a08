# Parley's entry points. `make run` builds Parley and runs the demo script; `make test` builds
# everything and runs every test (unit tests and SQL logic tests) through ctest. Both start with
# the bootstrap script, which installs what a fresh machine lacks and returns at once otherwise.

BUILD_DIR := build
JOBS := $(shell nproc)

# The targets chain bootstrap -> build -> run/test; keep them in order under `make -j`.
.NOTPARALLEL:
.PHONY: bootstrap build run test clean

bootstrap:
	scripts/bootstrap.sh

build:
	@if [ ! -f $(BUILD_DIR)/build.ninja ]; then \
	  cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo; \
	fi
	ninja -C $(BUILD_DIR) -j $(JOBS)

run: bootstrap build
	$(BUILD_DIR)/parley -f examples/demo.sql

test: bootstrap build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD_DIR)
