#include "model/coll/alltoall/source.hpp"

namespace mpisim::coll::alltoall {

namespace {
const TypeRef& packed() {
  static const TypeRef t = mpi::predefined_type("MPI_PACKED");
  return t;
}
}  // namespace

Source::Source(Rank& rank, const CollArgs& a) : rank_(rank), a_(a) {
  if (!a.in_place()) return;
  offset_.assign(static_cast<std::size_t>(a.p) + 1, 0);
  for (int i = 0; i < a.p; ++i)
    offset_[static_cast<std::size_t>(i) + 1] = offset_[static_cast<std::size_t>(i)] + a.recv_count(i) * a.recv_type(i)->size();
  copy_ = std::make_unique<Scratch>(rank, offset_.back(), packed());
}

Task<void> Source::open() {
  if (!copy_) co_return;
  for (int i = 0; i < a_.p; ++i)
    if (i != a_.me)
      co_await local_copy(rank_, a_.recvbuf + a_.recv_offset(i), a_.recv_count(i), a_.recv_type(i), at(i), count(i),
                          packed());
}

Address Source::at(int i) const {
  return copy_ ? copy_->addr() + offset_[static_cast<std::size_t>(i)] : a_.sendbuf + a_.send_offset(i);
}

std::int64_t Source::count(int i) const {
  auto k = static_cast<std::size_t>(i);
  return copy_ ? offset_[k + 1] - offset_[k] : a_.send_count(i);
}

const TypeRef& Source::type(int i) const { return copy_ ? packed() : a_.send_type(i); }

}  // namespace mpisim::coll::alltoall
