// CheckRunFitsHost: whether a run of `spec` can start on a machine with
// `host`'s limits (system/host_limits.h), judged before anything is laid
// out or written, so that a run that cannot work is refused at once
// instead of swapping, failing half way or outliving its --time:
//  - the workers' IO buffers (--threads x each worker's pool: --iodepth x
//    the largest --bs, whole huge pages) must fit in half the memory
//    available;
//  - with --fixedbufs, without CAP_IPC_LOCK, they must fit in
//    RLIMIT_MEMLOCK (registered buffers are pinned and counted there);
//  - the workers must fit in the threads the kernel and the user's process
//    limit still allow;
//  - with libaio, their contexts (--threads x --iodepth events) must fit in
//    what fs.aio-max-nr leaves.
// A refusal is a usage error (exit 2) naming the figures, with a hint.
// Pure: the limits are read by the caller.
#pragma once

#include "common/result.h"
#include "model/job_spec.h"
#include "system/host_limits.h"

namespace flashmark {

Status CheckRunFitsHost(const JobSpec& spec, const HostLimits& host);

}  // namespace flashmark
