# The two quick-start commands:
#   make run    install what building and running need (scripts/setup.sh
#               --run), build the program alone, run the default benchmark
#               and draw its HTML report
#   make test   install everything (scripts/setup.sh), build, run every
#               test and the quality gates (scripts/run-tests.sh; CI runs
#               exactly this):
#     ctest     the browser, install and source tests, and at the end,
#               alone, the integration tests whose bounds hold only at -O2
#               (label timing);
#     tidy      clang-tidy on src/ (.clang-tidy states the checks) and
#     includes  each src/ file compiled alone (the build uses unity batches);
#     asan      AddressSanitizer + UBSan build, every unit test and every
#               other integration test (label integration: run once, here)
#     tsan      ThreadSanitizer build, the runner, sampler, output-thread and
#               engine tests (the lock-free code)
#   (-Werror on every build; the format check is the ctest test `format`.)
BUILD ?= build
JOBS ?= $(shell nproc)

# The program at -O2 with line tables (-g1: every frame of a backtrace has
# its file and line; full -g made the build 45 % slower).
MAIN_FLAGS = -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DFLASHMARK_WERROR=ON
# Sanitizer builds: -O1 keeps them fast to build and to run; -g1 (line
# tables: the file and line of every frame a finding prints) builds them in
# about 30 % less time than -g.
SANITIZER_FLAGS = -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DFLASHMARK_WERROR=ON
# What ASan also runs: everything but the checks of the source itself, the
# browser and the install and package tests, and the tests labelled timing
# (each run once, in the main build).
ASAN_SKIP = ^(layers|format|source_checks|configure\.minimal|setup\..*|browser\.report|browser\.pts_report|install\..*)$$

# `make install [PREFIX=/usr/local]`: the program, man pages, completions
# and examples (cmake/install.cmake); `make deb`: the Debian package in
# $(BUILD)/package/ (CPack).
PREFIX ?= /usr/local

.PHONY: all setup setup-run configure program build test-programs run test gates tidy includes asan asan-build tsan tsan-build install deb clean

all: build

setup:
	@scripts/setup.sh --test

setup-run:
	@scripts/setup.sh --run

configure:
	@cmake -S . -B $(BUILD) $(MAIN_FLAGS) >/dev/null

# The program, its manual pages and completions, without the tests: what
# `make run` and `make install` need.
program: setup-run
	@$(MAKE) --no-print-directory configure
	@cmake --build $(BUILD) -j $(JOBS) --target flashmark docs

build: setup
	@$(MAKE) --no-print-directory configure
	@cmake --build $(BUILD) -j $(JOBS)

# What `make test` runs from the main build: the program and its manual
# pages (the browser and install tests) and the integration tests' driver
# (the timing tests); the unit tests run in the ASan build.
test-programs: configure
	@cmake --build $(BUILD) -j $(JOBS) --target flashmark docs integration_tests

run: program
	@scripts/default-run.sh $(BUILD)/flashmark

# (the main build is the first step of scripts/run-tests.sh, with the
# ASan build beside it)
test: setup
	@scripts/run-tests.sh $(BUILD)

gates: tidy includes asan tsan

tidy: build
	@scripts/check-tidy.sh $(BUILD)

includes: build
	@python3 scripts/check-sources.py includes $(BUILD)

# Each sanitizer build, then its tests (scripts/run-tests.sh builds one
# while the tests of another run).
asan: asan-build
	@cd $(BUILD)-asan && ctest --output-on-failure -j $(JOBS) -E '$(ASAN_SKIP)' -LE timing

asan-build: setup
	@cmake -S . -B $(BUILD)-asan -DFLASHMARK_SANITIZE=ON $(SANITIZER_FLAGS) >/dev/null
	@cmake --build $(BUILD)-asan -j $(JOBS)

tsan: tsan-build
	@cd $(BUILD)-tsan && ctest --output-on-failure -j $(JOBS) -L concurrency

tsan-build: setup
	@cmake -S . -B $(BUILD)-tsan -DFLASHMARK_TSAN=ON $(SANITIZER_FLAGS) >/dev/null
	@cmake --build $(BUILD)-tsan -j $(JOBS) --target concurrency_tests

install: program
	@cmake --install $(BUILD) --prefix $(PREFIX)

deb: program
	@rm -f $(BUILD)/package/*.deb
	@cd $(BUILD) && cpack -G DEB
	@ls $(BUILD)/package/*.deb

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-tsan
