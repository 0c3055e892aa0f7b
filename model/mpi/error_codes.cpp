#include "model/mpi/error_codes.hpp"

#include <algorithm>
#include <cstdio>

#include "model/mpi/constants.hpp"
#include "model/mpi/error.hpp"

namespace mpisim::mpi {

namespace {

constexpr int kFirstClass = 0x40000000;
constexpr int kLastCode = 0x3fffffff;  // MPI_ERR_LASTCODE

std::string hex(int v) {
  char s[16];
  std::snprintf(s, sizeof s, "0x%x", static_cast<unsigned>(v));
  return s;
}

[[noreturn]] void not_added(int code, const char* argument, const char* what) {
  throw MpiError(ErrorClass::arg, argument,
                 std::string(argument) + " = " + std::to_string(code) + " (" + hex(code) + ") is not " + what,
                 "MPI-4.1 §9.5: the calls that add and remove error classes, codes and strings act on the ones "
                 "MPI_Add_error_class and MPI_Add_error_code returned");
}

}  // namespace

const ErrorCodes::Added* ErrorCodes::find(int code) const {
  auto it = std::find_if(added_.begin(), added_.end(), [code](const Added& a) { return a.code == code; });
  return it == added_.end() ? nullptr : &*it;
}
ErrorCodes::Added* ErrorCodes::find(int code) {
  return const_cast<Added*>(static_cast<const ErrorCodes*>(this)->find(code));
}

void ErrorCodes::update_last_used() {
  last_used_ = kLastCode;
  for (const Added& a : added_) last_used_ = std::max(last_used_, a.code);
}

// An added class is MPI_ERR_LASTCODE + n, n the smallest of 1..127 no class of the
// program has now (a removed class's number is used again); a code added to it is
// the class plus a serial number from bit 8 up, and a code added to a predefined
// class has bit 7 set besides: no two can be equal.
int ErrorCodes::add_class() {
  int n = 1;
  while (n < 128 && find(kFirstClass + n) != nullptr) ++n;
  if (n == 128)
    throw MpiError(ErrorClass::other, "errorclass",
                   "the program has 127 error classes of its own, the most mpisim keeps at once (as MPICH)",
                   "MPI-4.1 §9.5: MPI_Add_error_class may fail when no class is left; MPI_Remove_error_class "
                   "gives one back");
  const int c = kFirstClass + n;
  added_.push_back(Added{c, c, {}});
  update_last_used();
  return c;
}

int ErrorCodes::add_code(int error_class) {
  const Added* cls = find(error_class);
  const bool predefined = error_code_name(error_class) != nullptr;
  if (!predefined && !(cls && cls->error_class == cls->code)) not_added(error_class, "errorclass", "an error class");
  // The serial number of the class's next code: one past its largest.
  int serial = 0;
  for (const Added& a : added_)
    if (a.error_class == error_class && a.code != a.error_class) serial = std::max(serial, a.code >> 8 & 0x3fffff);
  if (serial + 1 > 0x3fffff)
    throw MpiError(ErrorClass::other, "errorclass", "the class has 2^22 - 1 codes, the most mpisim numbers",
                   "MPI-4.1 §9.5: MPI_Add_error_code may fail when no code is left");
  const int code = predefined ? kFirstClass | (serial + 1) << 8 | 0x80 | error_class
                              : error_class | (serial + 1) << 8;
  added_.push_back(Added{code, error_class, {}});
  update_last_used();
  return code;
}

void ErrorCodes::add_string(int code, std::string_view text) {
  Added* a = find(code);
  if (!a)
    throw MpiError(ErrorClass::arg, "errorcode",
                   error_code_name(code) ? std::string(error_code_name(code)) + " is predefined: its string is fixed"
                                         : std::to_string(code) + " is no error code or class the program added",
                   "MPI-4.1 §9.5: MPI_Add_error_string sets the string of a code or class MPI_Add_error_code or "
                   "MPI_Add_error_class returned");
  if (text.size() >= static_cast<std::size_t>(MAX_ERROR_STRING))
    throw MpiError(ErrorClass::arg, "string", "the string has " + std::to_string(text.size()) + " characters",
                   "MPI-4.1 §9.5: an error string has fewer than MPI_MAX_ERROR_STRING (512) characters");
  a->text = text;
  a->has_text = true;
}

void ErrorCodes::remove_class(int error_class) {
  const Added* a = find(error_class);
  if (!a || a->error_class != a->code) not_added(error_class, "errorclass", "an error class the program added");
  if (std::any_of(added_.begin(), added_.end(),
                  [&](const Added& b) { return b.error_class == error_class && b.code != error_class; }))
    throw MpiError(ErrorClass::arg, "errorclass", "the class still has error codes",
                   "MPI-4.1 §9.5: a class is removed after the codes added to it");
  std::erase_if(added_, [&](const Added& b) { return b.code == error_class; });
  update_last_used();
}

void ErrorCodes::remove_code(int code) {
  const Added* a = find(code);
  if (!a || a->error_class == a->code) not_added(code, "errorcode", "an error code the program added");
  std::erase_if(added_, [&](const Added& b) { return b.code == code; });
  update_last_used();
}

void ErrorCodes::remove_string(int code) {
  Added* a = find(code);
  if (!a || !a->has_text) not_added(code, "errorcode", "a code or class with a string the program added");
  a->text.clear();
  a->has_text = false;
}

int ErrorCodes::class_of(int code, const char* argument) const {
  if (const Added* a = find(code)) return a->error_class;
  return error_class_of(code, argument);
}

std::string ErrorCodes::string_of(int code, const char* argument) const {
  if (const Added* a = find(code)) return a->text;  // empty until a string is added, as in MPICH
  return error_string(code, argument);
}

}  // namespace mpisim::mpi
