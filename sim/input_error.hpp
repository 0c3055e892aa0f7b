#pragma once
// An error in what the user gave us (a scenario, a network file, a flag):
// where it is and what was expected. The command line reports it and exits 2.
#include <stdexcept>
#include <string>

namespace mpisim::sim {

class InputError : public std::runtime_error {
 public:
  // `where` is a file name, optionally followed by a JSON pointer ("a.json: /program/3/count").
  InputError(std::string where, const std::string& what)
      : std::runtime_error(where.empty() ? what : where + ": " + what), where_(std::move(where)) {}
  const std::string& where() const { return where_; }

 private:
  std::string where_;
};

}  // namespace mpisim::sim
