#include "model/coll/handles.hpp"

#include <algorithm>
#include <cstdio>

#include "model/mpi/error.hpp"

namespace mpisim::coll {

using mpi::ErrorClass;
using mpi::MpiError;

std::string handle::text(int h) {
  char s[16];
  std::snprintf(s, sizeof s, "0x%08x", static_cast<unsigned>(h));
  return s;
}

namespace {

// The first free slot of a table (a null entry), made if there is none.
template <typename T>
std::size_t free_slot(std::vector<T>& v) {
  auto it = std::find(v.begin(), v.end(), nullptr);
  if (it != v.end()) return static_cast<std::size_t>(it - v.begin());
  v.emplace_back();
  return v.size() - 1;
}

}  // namespace

// ---- communicators

const mpi::Communicator& Handles::comm(int h, const mpi::World& world, const char* argument) const {
  if (h == handle::kCommWorld) return world.comm_world();
  if (h == handle::kCommSelf) return world.comm_self();
  if (const mpi::Communicator* const* c = named(comms_, h, handle::kComm)) {
    if (*c) return **c;
    if (std::find(pending_comms_.begin(), pending_comms_.end(), h) != pending_comms_.end())
      throw MpiError(ErrorClass::comm, argument,
                     "communicator " + handle::text(h) + " is not made yet: the MPI_Comm_idup that gives it has not "
                     "completed",
                     "MPI-4.1 §7.4.2: the new communicator of MPI_Comm_idup may not be used before the operation "
                     "completes");
    throw MpiError(ErrorClass::comm, argument, "communicator " + handle::text(h) + " was freed",
                   "MPI-4.1 §7.4.3: a freed communicator handle may not be used");
  }
  throw MpiError(ErrorClass::comm, argument,
                 h == handle::kCommNull ? std::string("MPI_COMM_NULL is not a communicator")
                                        : handle::text(h) + " is not a communicator handle of this rank",
                 "MPI-4.1 §7.4: a communicator argument must be a valid communicator handle");
}

int Handles::add_comm(const mpi::Communicator* made) {
  if (made == nullptr) return handle::kCommNull;
  comms_.push_back(made);
  return handle::kComm | static_cast<int>(comms_.size() - 1);
}

int Handles::reserve_comm() {
  comms_.push_back(nullptr);
  const int h = handle::kComm | static_cast<int>(comms_.size() - 1);
  pending_comms_.push_back(h);
  return h;
}

void Handles::fill_comm(int h, const mpi::Communicator* made) {
  std::erase(pending_comms_, h);
  if (const mpi::Communicator** c = named(comms_, h, handle::kComm)) *c = made;
}

void Handles::free_comm(int h) {
  if (const mpi::Communicator** c = named(comms_, h, handle::kComm)) *c = nullptr;
  std::erase_if(hints_, [h](const auto& e) { return e.first == h; });
}

int Handles::errhandler(int comm) const {
  for (const auto& [c, handler] : errhandlers_)
    if (c == comm) return handler;
  return handle::kErrorsAreFatal;
}

void Handles::set_errhandler(int comm, int handler) {
  for (auto& [c, e] : errhandlers_)
    if (c == comm) {
      e = handler;
      return;
    }
  errhandlers_.emplace_back(comm, handler);
}

// ---- names

const std::string* Handles::name(int h) const {
  for (const auto& [k, n] : names_)
    if (k == h) return &n;
  return nullptr;
}

void Handles::set_name(int h, std::string name) {
  for (auto& [k, n] : names_)
    if (k == h) {
      n = std::move(name);
      return;
    }
  names_.emplace_back(h, std::move(name));
}

void Handles::forget_name(int h) {
  names_.erase(std::remove_if(names_.begin(), names_.end(), [h](const auto& n) { return n.first == h; }), names_.end());
}

// ---- datatypes

mpi::TypeRef Handles::type(int h, const char* argument) const {
  const mpi::TypeRef* t = named(types_, h, handle::kType);
  if (t == nullptr) return nullptr;
  if (*t) return *t;
  throw MpiError(ErrorClass::type, argument, "datatype " + handle::text(h) + " was freed (MPI_Type_free)",
                 "MPI-4.1 §5.1.9: a freed datatype handle may not be used");
}

int Handles::add_type(mpi::TypeRef t) {
  const std::size_t i = free_slot(types_);
  types_[i] = std::move(t);
  return handle::kType | static_cast<int>(i);
}

void Handles::free_type(int h) {
  if (mpi::TypeRef* t = named(types_, h, handle::kType)) *t = nullptr;
  forget_name(h);  // the slot's next type starts unnamed
}

int Handles::handle_of(const mpi::Datatype& t) const {
  for (std::size_t i = 0; i < types_.size(); ++i)
    if (types_[i].get() == &t) return handle::kType | static_cast<int>(i);
  return 0;
}

// ---- groups

mpi::GroupRef Handles::group(int h, const char* argument) const {
  if (const mpi::GroupRef* g = named(groups_, h, handle::kGroup)) {
    if (*g) return *g;
    throw MpiError(ErrorClass::group, argument, "group " + handle::text(h) + " was freed (MPI_Group_free)",
                   "MPI-4.1 §7.3.3: a freed group handle may not be used");
  }
  throw MpiError(ErrorClass::group, argument,
                 h == handle::kGroupNull ? std::string("MPI_GROUP_NULL is not a group")
                                 : handle::text(h) + " is not a group handle of this rank",
                 "MPI-4.1 §7.3: a group argument must be a valid group handle");
}

int Handles::add_group(mpi::GroupRef g) {
  groups_.push_back(std::move(g));
  return handle::kGroup | static_cast<int>(groups_.size() - 1);
}

void Handles::free_group(int h) {
  if (mpi::GroupRef* g = named(groups_, h, handle::kGroup)) *g = nullptr;
}

// ---- operations

mpi::OpRef Handles::op(int h) const {
  const mpi::OpRef* o = named(ops_, h, handle::kOp);
  if (o == nullptr) return nullptr;
  if (*o) return *o;
  throw MpiError(ErrorClass::op, "op", "operation " + handle::text(h) + " was freed (MPI_Op_free)",
                 "MPI-4.1 §6.9.5: a freed operation handle may not be used");
}

int Handles::add_op(mpi::OpRef o) {
  ops_.push_back(std::move(o));
  return handle::kOp | static_cast<int>(ops_.size() - 1);
}

void Handles::free_op(int h) {
  if (mpi::OpRef* o = named(ops_, h, handle::kOp)) *o = nullptr;
}

// ---- requests

mpi::Request*& Handles::request(int h, const char* argument, int* about) {
  if (RequestSlot* s = named(requests_, h, handle::kRequest)) {
    if (s->op || s->persistent) {
      if (about && *about == 0) *about = s->comm;  // a completion call is about its requests' communicator
      return s->op;
    }
  }
  throw MpiError(ErrorClass::request, argument, handle::text(h) + " is not an active request of this rank",
                 "MPI-4.1 §3.7.3: a request handle must come from a nonblocking call and not be completed or "
                 "freed yet");
}

int Handles::add_request(mpi::Request* r, int comm) {
  std::size_t i = 0;
  while (i < requests_.size() && (requests_[i].op || requests_[i].persistent)) ++i;
  if (i == requests_.size()) requests_.emplace_back();
  requests_[i].op = r;
  requests_[i].comm = comm;  // the communicator of the call that made it: its errors' handler
  return handle::kRequest | static_cast<int>(i);
}

bool Handles::persistent(int h) const {
  const RequestSlot* s = named(requests_, h, handle::kRequest);
  return s && s->persistent;
}

Persistent* Handles::persistent_of(int h) {
  return persistent(h) ? requests_[slot(h)].persistent.get() : nullptr;
}

int Handles::add_persistent(std::unique_ptr<Persistent> p, int comm) {
  const int h = add_request(nullptr, comm);
  requests_[slot(h)].persistent = std::move(p);
  return h;
}

void Handles::free_persistent(int h) {
  if (persistent(h)) requests_[slot(h)].persistent.reset();
}

void Handles::completed(int& h) {
  if (h != handle::kRequestNull && !persistent(h)) h = handle::kRequestNull;
}

// ---- matched messages

int Handles::add_message(const mpi::MatchedMessage& m) {
  std::size_t i = 0;
  while (i < messages_.size() && messages_[i].comm != nullptr) ++i;
  if (i == messages_.size()) messages_.emplace_back();
  messages_[i] = m;
  return handle::kMessage | static_cast<int>(i);
}

mpi::MatchedMessage& Handles::message(int h) {
  if (mpi::MatchedMessage* m = named(messages_, h, handle::kMessage); m && m->comm != nullptr) return *m;
  throw MpiError(ErrorClass::request, "message",
                 h == handle::kMessageNull ? std::string("the message handle is MPI_MESSAGE_NULL")
                                 : handle::text(h) + " is not a message of this rank (or it was received already)",
                 "MPI-4.1 §3.8.3: MPI_Mrecv and MPI_Imrecv receive a message that a matched probe returned");
}

// ---- info objects

mpi::Info& Handles::info(int h, const char* argument) {
  if (h == mpi::INFO_ENV) return environment_;
  if (std::optional<mpi::Info>* i = named(infos_, h, handle::kInfo); i && *i) return **i;
  throw MpiError(ErrorClass::info, argument,
                 h == mpi::INFO_NULL ? std::string(argument) + " is MPI_INFO_NULL"
                                            : handle::text(h) + " is not an info object of this rank (or it was freed)",
                 "MPI-4.1 §10: the MPI_Info_* calls take an info object that MPI_Info_create, MPI_Info_dup or "
                 "MPI_Info_create_env made and MPI_Info_free has not freed, or MPI_INFO_ENV");
}

int Handles::add_info(mpi::Info info) {
  std::size_t i = 0;
  while (i < infos_.size() && infos_[i]) ++i;
  if (i == infos_.size()) infos_.emplace_back();
  infos_[i] = std::move(info);
  return handle::kInfo | static_cast<int>(i);
}

void Handles::free_info(int h) {
  if (h == mpi::INFO_ENV)
    throw MpiError(ErrorClass::info, "info", "info is MPI_INFO_ENV, which is predefined",
                   "MPI-4.1 §2.5.4: a predefined object cannot be freed");
  info(h, "info");
  infos_[slot(h)].reset();
}

const mpi::Info* Handles::hints(int comm) const {
  for (const auto& [c, info] : hints_)
    if (c == comm) return &info;
  return nullptr;
}

void Handles::set_hints(int comm, mpi::Info hints) {
  for (auto& [c, info] : hints_)
    if (c == comm) {
      info = std::move(hints);
      return;
    }
  hints_.emplace_back(comm, std::move(hints));
}

void Handles::check_info(int h, const char* argument) {
  if (h != mpi::INFO_NULL) info(h, argument);
}

// ---- error handlers the program made

int Handles::add_errhandler(ErrhandlerFn f) {
  errhandler_functions_.push_back(MadeErrhandler{f});
  return handle::kErrhandler | static_cast<int>(errhandler_functions_.size() - 1);
}

Handles::ErrhandlerFn Handles::errhandler_function(int h) const {
  const MadeErrhandler* e = named(errhandler_functions_, h, handle::kErrhandler);
  return e ? e->function : nullptr;
}

void Handles::add_errhandler_reference(int h) {
  if (MadeErrhandler* e = named(errhandler_functions_, h, handle::kErrhandler)) ++e->references;
}

void Handles::free_errhandler(int& h) {
  if (MadeErrhandler* e = named(errhandler_functions_, h, handle::kErrhandler)) {
    check_errhandler(h, "errhandler");
    --e->references;
  } else {
    mpi::check_errhandler(h, "errhandler");  // a predefined one stays
  }
  h = mpi::ERRHANDLER_NULL;
}

void Handles::check_errhandler(int h, const char* argument) const {
  const MadeErrhandler* e = named(errhandler_functions_, h, handle::kErrhandler);
  if (!e) return mpi::check_errhandler(h, argument);
  if (e->references == 0)
    throw MpiError(ErrorClass::arg, argument, std::string(argument) + " = " + handle::text(h) + " was freed",
                   "MPI-4.1 §9.3.4: an error handler's handle names nothing once MPI_Errhandler_free released "
                   "every reference the program had (MPI_Comm_create_errhandler's and MPI_Comm_get_errhandler's)");
}

}  // namespace mpisim::coll
