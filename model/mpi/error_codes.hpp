#pragma once
// The error classes, codes and strings a process adds (MPI-4.1 §9.5), beside the
// predefined classes (constants.hpp: mpisim's codes are the classes). The values
// are MPICH's: an added class is 0x40000001, 0x40000002, ...; an added code is its
// class with a serial number in bits 8 and up. The rules of MPI_Add_error_class,
// _code, _string, MPI_Remove_error_*, and of MPI_Error_class and MPI_Error_string
// for every code, are here.
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::mpi {

class ErrorCodes {
 public:
  int add_class();
  // MPI_ERR_ARG unless `error_class` is a class (predefined or added).
  int add_code(int error_class);
  // MPI_ERR_ARG for a code that is not added (a predefined one's string is
  // fixed) or a string of MPI_MAX_ERROR_STRING characters or more.
  void add_string(int code, std::string_view text);
  // MPI-4.1 §9.5: a class with codes left, a code or string not added, is MPI_ERR_ARG.
  void remove_class(int error_class);
  void remove_code(int code);
  void remove_string(int code);
  // MPI_Error_class and MPI_Error_string of any code; MPI_ERR_ARG naming
  // `argument` for a value that is no code.
  int class_of(int code, const char* argument) const;
  std::string string_of(int code, const char* argument) const;
  // MPI_LASTUSEDCODE: the largest code or class in use (MPI_ERR_LASTCODE until
  // one is added). Its address stays the same (the attribute points to it).
  const int* last_used() const { return &last_used_; }

 private:
  struct Added {
    int code;
    int error_class;  // == code for a class
    std::string text;
    bool has_text = false;
  };
  const Added* find(int code) const;
  Added* find(int code);
  void update_last_used();
  std::vector<Added> added_;
  int last_used_ = 0x3fffffff;      // MPI_ERR_LASTCODE
};

}  // namespace mpisim::mpi
