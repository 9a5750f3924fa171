# The two quick-start commands:
#   make run    install what is needed, build, run the default benchmark
#   make test   install what is needed, build, run every test, then the
#               quality gates (CI runs exactly this):
#     tidy      clang-tidy on src/ (.clang-tidy states the checks)
#     asan      AddressSanitizer + UBSan build, every unit and integration test
#     tsan      ThreadSanitizer build, the runner, sampler, output-thread and
#               engine tests (the lock-free code)
#   (-Werror on every build; the format check is the ctest test `format`.)
BUILD ?= build
JOBS ?= $(shell nproc)
# Where `make run` lays out its file set; removed afterwards.
RUN_DIR ?= $(shell mktemp -d -u /tmp/flashmark-run.XXXXXX)

# Sanitizer builds: -O1 keeps them fast to build and to run; -g1 (line
# tables: the file and line of every frame a finding prints) builds them in
# about 30 % less time than -g.
SANITIZER_FLAGS = -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DFLASHMARK_WERROR=ON
# What ASan also runs: everything but the checks of the source itself and
# the browser and the install and package tests (run once, in the main build).
ASAN_SKIP = ^(layers|format|configure\.minimal|browser\.report|browser\.pts_report|install\..*)$$

# `make install [PREFIX=/usr/local]`: the program, man pages, completions
# and examples (cmake/install.cmake); `make deb`: the Debian package in
# $(BUILD)/package/ (CPack).
PREFIX ?= /usr/local

.PHONY: all setup build run test gates tidy asan tsan install deb clean

all: build

setup:
	@scripts/setup.sh

build: setup
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLASHMARK_WERROR=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@scripts/default-run.sh $(BUILD)/flashmark

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory gates

gates: tidy asan tsan

tidy: build
	@scripts/check-tidy.sh $(BUILD)

asan: setup
	@cmake -S . -B $(BUILD)-asan -DFLASHMARK_SANITIZE=ON $(SANITIZER_FLAGS) >/dev/null
	@cmake --build $(BUILD)-asan -j $(JOBS)
	@cd $(BUILD)-asan && ctest --output-on-failure -j $(JOBS) -E '$(ASAN_SKIP)'

tsan: setup
	@cmake -S . -B $(BUILD)-tsan -DFLASHMARK_TSAN=ON $(SANITIZER_FLAGS) >/dev/null
	@cmake --build $(BUILD)-tsan -j $(JOBS) --target concurrency_tests
	@cd $(BUILD)-tsan && ctest --output-on-failure -j $(JOBS) -L concurrency

install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

deb: build
	@rm -f $(BUILD)/package/*.deb
	@cd $(BUILD) && cpack -G DEB
	@ls $(BUILD)/package/*.deb

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-tsan
