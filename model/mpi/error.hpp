#pragma once
// MpiError: an erroneous MPI call, diagnosed. It carries the error class, the
// argument at fault, what was expected and the rule of the standard (with its
// section). Arguments are validated once, at the rank API boundary; the rank and
// call are attached by whoever catches it with that knowledge.
#include <stdexcept>
#include <string>

#include "model/mpi/constants.hpp"

namespace mpisim::mpi {

class MpiError : public std::runtime_error {
 public:
  MpiError(ErrorClass cls, std::string argument, const std::string& message, std::string rule)
      : std::runtime_error(message), cls_(cls), argument_(std::move(argument)), rule_(std::move(rule)) {}

  ErrorClass error_class() const { return cls_; }
  const std::string& argument() const { return argument_; }
  const std::string& rule() const { return rule_; }

 private:
  ErrorClass cls_;
  std::string argument_;
  std::string rule_;
};

// MPI-4.1 §3.7.5: a request of MPI_Waitall, MPI_Testall, MPI_Waitsome or
// MPI_Testsome failed (`first`, the first in array order): the call returns
// MPI_ERR_IN_STATUS, and each status's MPI_ERROR says how its request ended.
inline MpiError in_status(const MpiError& first) {
  return MpiError(ErrorClass::in_status, first.argument(),
                  std::string(error_class_name(first.error_class())) + " in a status: " + first.what(),
                  first.rule() + "; MPI-4.1 §3.7.5: a call on an array of requests one of which fails returns "
                                 "MPI_ERR_IN_STATUS, with each request's error in its status");
}

// A limit of the run was reached (memory for simulated buffers, events): not an
// error of the simulated program, but the run cannot go on.
class LimitError : public std::runtime_error {
 public:
  LimitError(std::string limit, const std::string& what) : std::runtime_error(what), limit_(std::move(limit)) {}
  const std::string& limit() const { return limit_; }

 private:
  std::string limit_;
};

// MPI_Abort (MPI-4.1 §11.3): the program asked to stop every process of the job
// with `errorcode` as the job's exit status. `how` says who called it and how.
struct Aborted {
  int errorcode;
  std::string how;
};

}  // namespace mpisim::mpi
