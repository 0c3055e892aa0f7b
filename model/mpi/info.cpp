#include "model/mpi/info.hpp"

#include <algorithm>
#include <cstring>

#include "model/mpi/error.hpp"

namespace mpisim::mpi {

namespace {

void check_key(std::string_view key) {
  if (key.empty())
    throw MpiError(ErrorClass::info_key, "key", "the key is empty",
                   "MPI-4.1 §10: a key is a string of 1 to MPI_MAX_INFO_KEY (255) characters");
  if (key.size() > static_cast<std::size_t>(MAX_INFO_KEY))
    throw MpiError(ErrorClass::info_key, "key", "the key has " + std::to_string(key.size()) + " characters",
                   "MPI-4.1 §10: a key is a string of 1 to MPI_MAX_INFO_KEY (255) characters");
}

}  // namespace

void Info::set(std::string_view key, std::string_view value) {
  check_key(key);
  if (value.empty() || value.size() > static_cast<std::size_t>(MAX_INFO_VAL))
    throw MpiError(ErrorClass::info_value, "value",
                   value.empty() ? std::string("the value is empty")
                                 : "the value has " + std::to_string(value.size()) + " characters",
                   "MPI-4.1 §10: a value is a string of 1 to MPI_MAX_INFO_VAL (1024) characters");
  auto it = std::find_if(pairs_.begin(), pairs_.end(), [&](const auto& p) { return p.first == key; });
  if (it != pairs_.end()) it->second = value;
  else pairs_.emplace_back(key, value);
}

void Info::erase(std::string_view key) {
  check_key(key);
  auto it = std::find_if(pairs_.begin(), pairs_.end(), [&](const auto& p) { return p.first == key; });
  if (it == pairs_.end())
    throw MpiError(ErrorClass::info_nokey, "key", "the info object has no key \"" + std::string(key) + "\"",
                   "MPI-4.1 §10: MPI_Info_delete deletes a key the info object has");
  pairs_.erase(it);
}

std::optional<std::string_view> Info::get(std::string_view key) const {
  check_key(key);
  auto it = std::find_if(pairs_.begin(), pairs_.end(), [&](const auto& p) { return p.first == key; });
  if (it == pairs_.end()) return std::nullopt;
  return std::string_view(it->second);
}

const std::string& Info::nthkey(int n) const {
  if (n < 0 || n >= nkeys())
    throw MpiError(ErrorClass::arg, "n",
                   "n = " + std::to_string(n) + " is not a key's number (the info object has " +
                       std::to_string(nkeys()) + " keys)",
                   "MPI-4.1 §10: n is at least 0 and less than the number of keys MPI_Info_get_nkeys gives");
  return pairs_[static_cast<std::size_t>(n)].first;
}

Info environment_info(std::string_view command, const std::vector<std::string>& args, int processes) {
  Info env;
  if (!command.empty()) env.set("command", command);
  std::string argv;
  for (const std::string& a : args) argv += (argv.empty() ? "" : " ") + a;
  if (!argv.empty()) env.set("argv", argv);
  env.set("maxprocs", std::to_string(processes));
  return env;
}

Info communicator_hints(const Info* current, const Info* given) {
  static constexpr const char* kAssertions[] = {"mpi_assert_no_any_tag", "mpi_assert_no_any_source",
                                                "mpi_assert_exact_length", "mpi_assert_allow_overtaking"};
  Info hints;
  for (const char* key : kAssertions) {
    std::optional<std::string_view> v = given ? given->get(key) : std::nullopt;
    if (!v && current) v = current->get(key);
    hints.set(key, v ? *v : "false");
  }
  return hints;
}

void copy_value(std::string_view value, int valuelen, char* out) {
  if (valuelen < 0)
    throw MpiError(ErrorClass::arg, "valuelen", "valuelen = " + std::to_string(valuelen) + " is negative",
                   "MPI-4.1 §10: valuelen is the number of characters value has room for, besides the NUL");
  const std::size_t n = std::min(value.size(), static_cast<std::size_t>(valuelen));
  std::memcpy(out, value.data(), n);
  out[n] = '\0';
}

}  // namespace mpisim::mpi
