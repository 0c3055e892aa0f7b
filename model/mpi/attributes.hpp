#pragma once
// Attribute caching (MPI-4.1 §7.7): keys (keyvals) a process makes, with a copy
// and a delete callback each, and the values it caches on its communicators and
// datatypes under them. The rules are here: which key fits which object, when
// each callback runs (a duplicate copies, a free or a delete deletes, a set over
// a value deletes the old one first), the order of deletion, and a freed key
// still serving the values cached under it. The callbacks are the program's
// functions, called with the objects' handles.
#include <cstdint>
#include <optional>
#include <vector>

namespace mpisim::mpi {

// What a key caches on: keys of one kind do not fit objects of another.
enum class AttrObject : std::uint8_t { comm, datatype };

// The callbacks, as mpi.h declares them (MPI_Comm_copy_attr_function, ...;
// MPI_Copy_function and MPI_Delete_function have the communicator ones' shape).
// A null copy function copies nothing (MPI_COMM_NULL_COPY_FN); a null delete
// function does nothing (MPI_COMM_NULL_DELETE_FN).
using AttrCopyFn = int (*)(int object, int keyval, void* extra_state, void* value_in, void* value_out, int* flag);
using AttrDeleteFn = int (*)(int object, int keyval, void* value, void* extra_state);

// MPICH's values: MPI_KEYVAL_INVALID, and the keys a program makes (this kind
// with the key's slot).
inline constexpr int KEYVAL_INVALID = 0x24000000;
inline constexpr int kKeyvalKind = static_cast<int>(0xa4400000u);

class Attributes {
 public:
  // MPI_Comm_create_keyval, MPI_Type_create_keyval, MPI_Keyval_create.
  int create_keyval(AttrObject kind, AttrCopyFn copy, AttrDeleteFn del, void* extra_state);
  // MPI_*_free_keyval: the key is no more (keyval = MPI_KEYVAL_INVALID), but the
  // values cached under it stay until deleted. MPI_ERR_KEYVAL for a key of
  // another kind, a freed one or none.
  void free_keyval(AttrObject kind, int& keyval);
  // MPI_*_set_attr: caches `value` on `object` under `keyval`; a value it had is
  // deleted first (its delete callback runs).
  void set(AttrObject kind, int object, int keyval, void* value);
  // MPI_*_get_attr for a key the program made: the value, or nullopt.
  std::optional<void*> get(AttrObject kind, int object, int keyval) const;
  // MPI_*_delete_attr: the delete callback runs, then the value is gone. An
  // object with no value under the key is left as it is (the standard makes it
  // no error; MPICH returns MPI_SUCCESS).
  void erase(AttrObject kind, int object, int keyval);
  // MPI_Comm_dup, MPI_Type_dup: each value of `from`, in the order set, goes
  // through its key's copy callback; those it keeps are cached on `to`.
  void copy(AttrObject kind, int from, int to);
  // MPI_Comm_free, MPI_Type_free, MPI_Finalize (on MPI_COMM_SELF, then on
  // MPI_COMM_WORLD as MPICH does): the delete
  // callbacks of the object's values, the last set first, then none is left.
  void erase_all(AttrObject kind, int object);
  // Whether `keyval` is a key the program made (freed or not) rather than a
  // predefined attribute's key.
  static bool made(int keyval) { return (keyval & ~kSlotMask) == kKeyvalKind; }

 private:
  static constexpr int kSlotMask = 0x000fffff;
  struct Keyval {
    AttrObject kind;
    AttrCopyFn copy;
    AttrDeleteFn del;
    void* extra_state;
    bool freed = false;  // the program freed it; the values under it stay
  };
  struct Value {
    AttrObject kind;
    int object;
    int keyval;
    void* value;
  };
  Keyval& key(AttrObject kind, int keyval, const char* argument);
  void run_delete(const Value& v);
  std::vector<Keyval> keyvals_;
  std::vector<Value> values_;  // in the order set
};

}  // namespace mpisim::mpi
