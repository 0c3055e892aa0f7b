#pragma once
// A rank's MPI handles (MPI-4.1 §2.5.1): the opaque integers a program names the
// library's objects by, and the rules for using them. The values are those of
// mpisim's mpi.h: MPICH's for the predefined objects (which the binding decodes),
// and for an object the rank made, its kind in the high byte and its slot in the
// rank's table below. A slot is reused once its object is freed; a freed handle
// names nothing (MPI_ERR_COMM, _GROUP, _TYPE, _OP, _REQUEST, each with its rule).
//
// Front-ends (the C binding) keep one Handles per rank and ask it, for each
// handle argument, for the object or the error.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/coll/persistent.hpp"
#include "model/mpi/attributes.hpp"
#include "model/mpi/comm.hpp"
#include "model/mpi/error_codes.hpp"
#include "model/mpi/datatype.hpp"
#include "model/mpi/group.hpp"
#include "model/mpi/info.hpp"
#include "model/mpi/op.hpp"
#include "model/mpi/runtime.hpp"

namespace mpisim::coll {

namespace handle {
inline constexpr int kCommWorld = 0x44000000, kCommSelf = 0x44000001, kCommNull = 0x04000000;
inline constexpr int kComm = static_cast<int>(0x84000000u);
inline constexpr int kGroup = static_cast<int>(0x88000000u);
inline constexpr int kType = static_cast<int>(0xcc000000u);
inline constexpr int kRequest = static_cast<int>(0xac000000u);
inline constexpr int kOp = static_cast<int>(0x98000000u);
inline constexpr int kMessage = static_cast<int>(0xb4000000u);
inline constexpr int kInfo = static_cast<int>(0x9c000000u);
inline constexpr int kErrhandler = static_cast<int>(0x94000000u);
inline constexpr int kIndex = 0x00ffffff;
inline constexpr int kGroupNull = 0x08000000, kRequestNull = 0x2c000000, kMessageNull = 0x2c000000;
inline constexpr int kErrorsAreFatal = 0x54000000;
std::string text(int h);  // "0x84000001"
}  // namespace handle

class Handles {
 public:
  // ---- communicators. MPI_COMM_WORLD and MPI_COMM_SELF are the world's.
  // The communicator h names, or MPI_ERR_COMM.
  const mpi::Communicator& comm(int h, const mpi::World& world, const char* argument) const;
  int add_comm(const mpi::Communicator* made);  // MPI_COMM_NULL for null
  // A nonblocking constructor (MPI_Comm_idup): the handle is given at the call and
  // names the communicator once the operation completes (fill_comm); until then
  // using it is erroneous (MPI-4.1 §7.4.2).
  int reserve_comm();
  void fill_comm(int h, const mpi::Communicator* made);
  // MPI_Comm_free: the slot empties; operations under way keep the communicator.
  void free_comm(int h);
  // A communicator's error handler (MPI_ERRORS_ARE_FATAL unless set).
  int errhandler(int comm) const;
  void set_errhandler(int comm, int handler);

  // ---- object names (MPI_Comm_set_name, MPI_Type_set_name): null when unnamed.
  const std::string* name(int h) const;
  void set_name(int h, std::string name);
  void forget_name(int h);

  // ---- constructed datatypes. Null when h is not a constructed type's handle
  // (the binding decodes the predefined ones); MPI_ERR_TYPE when it was freed.
  mpi::TypeRef type(int h, const char* argument) const;
  int add_type(mpi::TypeRef t);
  void free_type(int h);  // and its name
  // The handle this rank has for a constructed type, or 0.
  int handle_of(const mpi::Datatype& t) const;

  // ---- groups (MPI_GROUP_EMPTY is the binding's). MPI_ERR_GROUP.
  mpi::GroupRef group(int h, const char* argument) const;
  int add_group(mpi::GroupRef g);
  void free_group(int h);

  // ---- user-defined operations. Null when h is not one's handle; MPI_ERR_OP
  // when it was freed.
  mpi::OpRef op(int h) const;
  int add_op(mpi::OpRef o);
  void free_op(int h);  // calls under way keep it

  // ---- requests: operations in flight and persistent requests (active or not).
  // The operation h names: null for an inactive persistent request. MPI_ERR_REQUEST
  // for a handle that names no request of this rank (completed, freed, made up).
  // `about` is set to the communicator of the call that made it, the first time.
  mpi::Request*& request(int h, const char* argument, int* about);
  // The operation slot h names, with no check that it holds a request (null when
  // h names no slot): for releasing what the library released on an error.
  mpi::Request** operation(int h) {
    RequestSlot* s = named(requests_, h, handle::kRequest);
    return s ? &s->op : nullptr;
  }
  // r, made by a call about communicator `comm`: its handle.
  int add_request(mpi::Request* r, int comm);
  bool persistent(int h) const;
  // The persistent request of slot h (null when h's is not persistent).
  Persistent* persistent_of(int h);
  // A persistent request: its handle (the slot holds no operation until started).
  int add_persistent(std::unique_ptr<Persistent> p, int comm);
  // MPI_Request_free of a persistent request: the slot empties.
  void free_persistent(int h);
  // After a completion: the slot of a request that is not persistent empties and
  // its handle becomes MPI_REQUEST_NULL; a persistent one stays, inactive.
  void completed(int& h);

  // ---- matched messages (MPI_Mprobe, MPI_Improbe). MPI_ERR_REQUEST.
  int add_message(const mpi::MatchedMessage& m);
  mpi::MatchedMessage& message(int h);

  // ---- info objects (MPI-4.1 §10). MPI_INFO_ENV names the environment's
  // (set_environment). MPI_ERR_INFO for MPI_INFO_NULL, a freed or a made-up handle.
  mpi::Info& info(int h, const char* argument);
  int add_info(mpi::Info info);
  void free_info(int h);  // MPI_ERR_INFO for MPI_INFO_ENV too: it is predefined
  // An info argument of a call that takes hints: MPI_INFO_NULL or an info object
  // (mpisim takes no hint from it).
  void check_info(int h, const char* argument);
  void set_environment(mpi::Info env) { environment_ = std::move(env); }
  // ---- error handlers the program made (MPI_Comm_create_errhandler). The C
  // function of handler h, or null for a predefined one.
  using ErrhandlerFn = void (*)(int* comm, int* errorcode, ...);
  int add_errhandler(ErrhandlerFn f);
  ErrhandlerFn errhandler_function(int h) const;
  // MPI_Comm_get_errhandler gives the program another reference to a handler it
  // made; MPI_Errhandler_free releases one (the handle becomes
  // MPI_ERRHANDLER_NULL) and the handle names nothing once none is left, while
  // communicators that have the handler keep it (MPI-4.1 §9.3.4).
  void add_errhandler_reference(int h);
  void free_errhandler(int& h);
  // An error handler argument: a predefined one or one made and not freed, else MPI_ERR_ARG.
  void check_errhandler(int h, const char* argument) const;
  // The error classes, codes and strings the rank added (MPI_Add_error_class, ...).
  mpi::ErrorCodes& error_codes() { return error_codes_; }
  const mpi::ErrorCodes& error_codes() const { return error_codes_; }

  // ---- attributes cached on the rank's communicators and datatypes, by handle.
  mpi::Attributes& attributes() { return attributes_; }

  // A communicator's hints (mpi::communicator_hints): null until a call set them.
  const mpi::Info* hints(int comm) const;
  void set_hints(int comm, mpi::Info hints);

 private:
  static std::size_t slot(int h) { return static_cast<std::size_t>(h & handle::kIndex); }
  static bool kind(int h, int k) { return (h & ~handle::kIndex) == k; }
  // The slot of `table` that h, a handle of kind k, names; null when it names none.
  template <typename T>
  static T* named(std::vector<T>& table, int h, int k) {
    return kind(h, k) && slot(h) < table.size() ? &table[slot(h)] : nullptr;
  }
  template <typename T>
  static const T* named(const std::vector<T>& table, int h, int k) {
    return kind(h, k) && slot(h) < table.size() ? &table[slot(h)] : nullptr;
  }
  std::vector<const mpi::Communicator*> comms_;  // null: freed, or not made yet (pending_comms_)
  std::vector<int> pending_comms_;                // handles reserve_comm gave that fill_comm has not filled
  std::vector<std::pair<int, int>> errhandlers_;  // communicator handle -> error handler, where set
  std::vector<std::pair<int, std::string>> names_;  // handle -> name, where set
  std::vector<mpi::TypeRef> types_;               // null: free
  std::vector<mpi::GroupRef> groups_;             // null: freed
  std::vector<mpi::OpRef> ops_;                   // null: freed
  struct RequestSlot {
    mpi::Request* op = nullptr;             // the operation in flight
    std::unique_ptr<Persistent> persistent;  // a persistent request's arguments
    int comm = 0;                           // the communicator of the call that made it
  };
  std::vector<RequestSlot> requests_;
  std::vector<mpi::MatchedMessage> messages_;  // comm null: free
  std::vector<std::optional<mpi::Info>> infos_;  // nullopt: freed
  mpi::Info environment_;                        // MPI_INFO_ENV
  std::vector<std::pair<int, mpi::Info>> hints_;  // communicator handle -> its hints, where set
  mpi::Attributes attributes_;
  struct MadeErrhandler {
    ErrhandlerFn function;
    int references = 1;  // the program's; at 0 the handle is no more (communicators keep the handler)
  };
  std::vector<MadeErrhandler> errhandler_functions_;
  mpi::ErrorCodes error_codes_;
};

}  // namespace mpisim::coll
