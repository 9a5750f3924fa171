// flashmark's own run documents (--json, a cluster rank's local file) into
// the store: `flashmark import flashmark FILE.json`. The run comes back as
// it was measured (document/run_document_read.h); a document left
// "running" (its process died) is stored interrupted. A cluster rank's
// document joins its group: the tags group=, rank= and host= that rank 0
// gave the runs it stored (document/rank_identity.h). Labelled with the
// file's name (no directory, no extension); source "flashmark",
// source_hash the SHA-256 of the text. Pure; thread-safe.
#pragma once

#include "common/result.h"
#include "store/import_common.h"
#include "store/run_store.h"

namespace flashmark {

Result<StoredRun> ParseFlashmarkDocument(const ImportFile& file);

}  // namespace flashmark
