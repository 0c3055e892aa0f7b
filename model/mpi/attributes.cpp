#include "model/mpi/attributes.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "model/mpi/constants.hpp"
#include "model/mpi/error.hpp"

namespace mpisim::mpi {

namespace {

constexpr int kSuccess = static_cast<int>(ErrorClass::success);

const char* kind_name(AttrObject k) { return k == AttrObject::comm ? "communicator" : "datatype"; }

std::string hex(int v) {
  char s[16];
  std::snprintf(s, sizeof s, "0x%x", static_cast<unsigned>(v));
  return s;
}

// A callback's failure: the call fails with the callback's error (MPI-4.1 §7.7.2).
[[noreturn]] void callback_failed(const char* which, int code) {
  const ErrorClass cls = error_code_name(code) ? static_cast<ErrorClass>(code) : ErrorClass::other;
  throw MpiError(cls, "", std::string("the attribute's ") + which + " callback returned " + std::to_string(code),
                 std::string("MPI-4.1 §7.7.2: when an attribute's ") + which +
                     " callback returns an error, the call that ran it fails with that error");
}

}  // namespace

int Attributes::create_keyval(AttrObject kind, AttrCopyFn copy, AttrDeleteFn del, void* extra_state) {
  keyvals_.push_back(Keyval{kind, copy, del, extra_state});
  return kKeyvalKind | static_cast<int>(keyvals_.size() - 1);
}

Attributes::Keyval& Attributes::key(AttrObject kind, int keyval, const char* argument) {
  const std::size_t slot = static_cast<std::size_t>(keyval & kSlotMask);
  if (!made(keyval) || slot >= keyvals_.size())
    throw MpiError(ErrorClass::keyval, argument,
                   keyval == KEYVAL_INVALID ? std::string(argument) + " is MPI_KEYVAL_INVALID"
                                            : hex(keyval) + " is no attribute key this process made",
                   "MPI-4.1 §7.7.2: a key is made by MPI_Comm_create_keyval or MPI_Type_create_keyval");
  Keyval& k = keyvals_[slot];
  if (k.kind != kind)
    throw MpiError(ErrorClass::keyval, argument,
                   hex(keyval) + " is a key for " + kind_name(k.kind) + "s, not for " + kind_name(kind) + "s",
                   "MPI-4.1 §7.7.2: a key made for one kind of object caches values on that kind only");
  return k;
}

void Attributes::free_keyval(AttrObject kind, int& keyval) {
  Keyval& k = key(kind, keyval, "keyval");
  if (k.freed)
    throw MpiError(ErrorClass::keyval, "keyval", hex(keyval) + " was freed already",
                   "MPI-4.1 §7.7.2: a key is freed once");
  k.freed = true;
  keyval = KEYVAL_INVALID;
}

void Attributes::set(AttrObject kind, int object, int keyval, void* value) {
  if (key(kind, keyval, "keyval").freed)
    throw MpiError(ErrorClass::keyval, "keyval", hex(keyval) + " was freed",
                   "MPI-4.1 §7.7.2: a freed key caches no new value");
  auto it = std::find_if(values_.begin(), values_.end(),
                         [&](const Value& v) { return v.kind == kind && v.object == object && v.keyval == keyval; });
  if (it != values_.end()) {
    run_delete(Value(*it));  // MPI-4.1 §7.7.2: setting over a value deletes it first
    // The callback may have changed the list: find the value again.
    it = std::find_if(values_.begin(), values_.end(),
                      [&](const Value& v) { return v.kind == kind && v.object == object && v.keyval == keyval; });
    if (it != values_.end()) {
      it->value = value;
      return;
    }
  }
  values_.push_back(Value{kind, object, keyval, value});
}

std::optional<void*> Attributes::get(AttrObject kind, int object, int keyval) const {
  // Get does not check the key's kind beyond its existence (MPICH does the same
  // for a freed key whose values remain).
  const std::size_t slot = static_cast<std::size_t>(keyval & kSlotMask);
  if (!made(keyval) || slot >= keyvals_.size() || keyvals_[slot].kind != kind)
    throw MpiError(ErrorClass::keyval, "keyval",
                   keyval == KEYVAL_INVALID ? std::string("keyval is MPI_KEYVAL_INVALID")
                                            : hex(keyval) + " is no " + kind_name(kind) + " attribute key",
                   "MPI-4.1 §7.7.2: a key is made by MPI_Comm_create_keyval or MPI_Type_create_keyval, or is "
                   "a predefined attribute's");
  for (const Value& v : values_)
    if (v.kind == kind && v.object == object && v.keyval == keyval) return v.value;
  return std::nullopt;
}

void Attributes::run_delete(const Value& v) {
  const Keyval& k = keyvals_[static_cast<std::size_t>(v.keyval & kSlotMask)];
  if (k.del)
    if (const int code = k.del(v.object, v.keyval, v.value, k.extra_state); code != kSuccess)
      callback_failed("delete", code);
}

void Attributes::erase(AttrObject kind, int object, int keyval) {
  key(kind, keyval, "keyval");
  auto it = std::find_if(values_.begin(), values_.end(),
                         [&](const Value& v) { return v.kind == kind && v.object == object && v.keyval == keyval; });
  if (it == values_.end()) return;  // nothing to delete: not an error (as MPICH)
  const Value v = *it;
  run_delete(v);  // a failure leaves the value in place
  // The callback may have changed the list (deleted other values): find it again.
  std::erase_if(values_, [&](const Value& w) { return w.kind == kind && w.object == object && w.keyval == keyval; });
}

void Attributes::copy(AttrObject kind, int from, int to) {
  std::vector<Value> of;  // a callback may set or delete values: copy the list first
  for (const Value& v : values_)
    if (v.kind == kind && v.object == from) of.push_back(v);
  for (const Value& v : of) {
    const Keyval& k = keyvals_[static_cast<std::size_t>(v.keyval & kSlotMask)];
    if (!k.copy) continue;  // MPI_COMM_NULL_COPY_FN
    void* out = nullptr;
    int flag = 0;
    if (const int code = k.copy(from, v.keyval, k.extra_state, v.value, &out, &flag); code != kSuccess)
      callback_failed("copy", code);
    if (!flag) continue;
    values_.push_back(Value{kind, to, v.keyval, out});
  }
}

void Attributes::erase_all(AttrObject kind, int object) {
  // The last set first (MPI-4.1 §11.2.2 requires it of MPI_COMM_SELF at
  // MPI_Finalize; the same order serves every object).
  for (;;) {
    auto it = std::find_if(values_.rbegin(), values_.rend(),
                           [&](const Value& v) { return v.kind == kind && v.object == object; });
    if (it == values_.rend()) return;
    const Value v = *it;
    run_delete(v);
    std::erase_if(values_, [&](const Value& w) { return w.kind == kind && w.object == object && w.keyval == v.keyval; });
  }
}

}  // namespace mpisim::mpi
