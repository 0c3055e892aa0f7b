#pragma once
// Info objects (MPI-4.1 §10): ordered (key, value) pairs of strings that pass hints
// to calls. The rules of every MPI_Info_* call are here; a front-end maps its
// handles to Info objects (coll::Handles) and copies strings in and out.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mpisim::mpi {

inline constexpr int MAX_INFO_KEY = 255;   // MPICH's value: the longest key
inline constexpr int MAX_INFO_VAL = 1024;  // MPICH's value: the longest value
// MPICH's handle values of MPI_INFO_NULL and MPI_INFO_ENV.
inline constexpr int INFO_NULL = 0x1c000000, INFO_ENV = 0x5c000001;

class Info {
 public:
  // MPI_Info_set: adds the key, or replaces its value where it has one.
  // MPI_ERR_INFO_KEY for an empty key or one over MAX_INFO_KEY characters,
  // MPI_ERR_INFO_VALUE for an empty value or one over MAX_INFO_VAL.
  void set(std::string_view key, std::string_view value);
  // MPI_Info_delete: MPI_ERR_INFO_NOKEY when the key has no value.
  void erase(std::string_view key);
  // The value of `key`, or nullopt (MPI_Info_get, _get_valuelen, _get_string);
  // MPI_ERR_INFO_KEY for a key no value could have (empty, too long).
  std::optional<std::string_view> get(std::string_view key) const;
  int nkeys() const { return static_cast<int>(pairs_.size()); }
  // MPI_Info_get_nthkey: the keys in the order they were first set; MPI_ERR_ARG
  // unless 0 <= n < nkeys().
  const std::string& nthkey(int n) const;

 private:
  std::vector<std::pair<std::string, std::string>> pairs_;
};

// MPI_INFO_ENV (MPI-4.1 §11.2.5): how the job was started, as mpiexec would give
// it: "command" (the program), "argv" (its arguments, separated by spaces; when it
// has some) and "maxprocs" (the number of processes).
Info environment_info(std::string_view command, const std::vector<std::string>& args, int processes);

// A communicator's hints (MPI-4.1 §7.4.4): the four assertions the standard
// defines (mpi_assert_no_any_tag, _no_any_source, _exact_length,
// _allow_overtaking), each "false" unless set; `current` (null: the defaults)
// with the values `given` has for them. Other keys are ignored, as an
// implementation may; mpisim checks no assertion.
Info communicator_hints(const Info* current, const Info* given);

// MPI_Info_get's copy: at most `valuelen` characters of `value` then a NUL into
// `out` (which has valuelen + 1); MPI_ERR_ARG for a negative valuelen.
void copy_value(std::string_view value, int valuelen, char* out);

}  // namespace mpisim::mpi
