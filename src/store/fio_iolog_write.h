// Writes a block IO trace (model/block_io_trace.h) as fio's iolog version
// 3, the format `fio --read_iolog=FILE` replays and store/fio_iolog_import.h
// reads back: each device one file (/dev/NAME: add, open, its IOs, close),
// each IO one line "MICROSECONDS /dev/NAME read|write|trim OFFSET LENGTH",
// a flush "sync 0 0". An IO's time is when it entered the block layer
// (its queue time; its issue time when that is not known), in microseconds
// since the trace's start, the lines in time order. Pure; thread-safe.
#pragma once

#include <string>

#include "model/block_io_trace.h"

namespace flashmark {

std::string FioIologV3Text(const BlockIoTrace& trace);

}  // namespace flashmark
