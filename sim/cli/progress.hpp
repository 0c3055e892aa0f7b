#pragma once
// One progress line on stderr while a long command runs, when stderr is a terminal
// (never in a pipe, a file or a test's stream): rewritten in place, erased at the
// end. What it shows is for the person waiting; no result depends on it.
#include <unistd.h>

#include <iostream>
#include <string>

namespace mpisim::cli {

class ProgressLine {
 public:
  ProgressLine(std::ostream& err, bool wanted) : err_(err), on_(wanted && &err == &std::cerr && isatty(STDERR_FILENO)) {}
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine() { clear(); }

  bool on() const { return on_; }
  void show(const std::string& text) {
    if (!on_) return;
    err_ << "\r\033[K" << text << std::flush;
    shown_ = true;
  }
  void clear() {
    if (shown_) err_ << "\r\033[K" << std::flush;
    shown_ = false;
  }

 private:
  std::ostream& err_;
  bool on_;
  bool shown_ = false;
};

}  // namespace mpisim::cli
