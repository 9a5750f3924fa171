// JsonRunWriter: writes the run document (report/json_format.h) to a file
// as the run goes, so that the file is valid JSON after every interval: it
// ends with the intervals so far and "status": "running" until the run
// ends, when status, error and summary replace that tail. An interrupted
// or killed run therefore keeps every finished interval.
// With path "-" the whole document goes to the given stream at the end.
// Runs on the run's output thread (RunObserver). A write failure is reported
// once on `errors` and the run goes on.
#pragma once

#include <cstdio>
#include <ostream>
#include <string>

#include "runner/run_observer.h"

namespace flashmark {

class JsonRunWriter : public RunObserver {
 public:
  JsonRunWriter(std::string path, std::ostream& stdout_stream,
                std::ostream& errors);
  ~JsonRunWriter() override;

  // Creates (truncates) the file; call before the run to fail early.
  Status Open();

  void OnStart(const RunResult& run) override;
  void OnInterval(const RunResult& run, const IntervalSample& sample) override;
  void OnEnd(const RunResult& run) override;

 private:
  void WriteAtTail(const std::string& text, const std::string& trailer);

  std::string path_;
  std::ostream& stdout_stream_;
  std::ostream& errors_;
  FILE* file_ = nullptr;
  long tail_ = 0;  // offset where the next interval (or the end) goes
  bool first_interval_ = true;
  bool failed_ = false;
};

}  // namespace flashmark
