# The two quick-start commands:
#   make run    install what is needed, build, run the default benchmark
#   make test   install what is needed, build, run every test
BUILD ?= build
JOBS ?= $(shell nproc)
# Where `make run` lays out its file set; removed afterwards.
RUN_DIR ?= $(shell mktemp -d -u /tmp/flashmark-run.XXXXXX)

.PHONY: all setup build run test clean

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

clean:
	rm -rf $(BUILD)
