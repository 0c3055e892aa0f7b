// Info objects and attribute caching: the library's rules, without a front-end.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "model/mpi/attributes.hpp"
#include "model/mpi/error.hpp"
#include "model/mpi/info.hpp"

using namespace mpisim;
using mpi::AttrObject;
using mpi::ErrorClass;

namespace {
ErrorClass class_of(auto&& f) {
  try {
    f();
  } catch (const mpi::MpiError& e) {
    return e.error_class();
  }
  return ErrorClass::success;
}

std::vector<long> deleted;
int record_delete(int, int, void* value, void*) {
  deleted.push_back(reinterpret_cast<long>(value));
  return 0;
}
int keep_double(int, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = reinterpret_cast<void*>(reinterpret_cast<long>(in) * 2);
  *flag = 1;
  return 0;
}
int refuse(int, int, void*, void*, void*, int*) { return static_cast<int>(ErrorClass::other); }
}  // namespace

TEST_CASE("an info object keeps its keys in the order first set, with the standard's limits") {
  mpi::Info info;
  info.set("b", "1");
  info.set("a", "2");
  info.set("b", "3");
  REQUIRE(info.nkeys() == 2);
  CHECK(info.nthkey(0) == "b");
  CHECK(*info.get("b") == "3");
  CHECK(!info.get("c"));
  CHECK(class_of([&] { info.nthkey(2); }) == ErrorClass::arg);
  CHECK(class_of([&] { info.set(std::string(256, 'k'), "v"); }) == ErrorClass::info_key);
  CHECK(class_of([&] { info.set(std::string(255, 'k'), std::string(1025, 'v')); }) == ErrorClass::info_value);
  CHECK(class_of([&] { info.erase("c"); }) == ErrorClass::info_nokey);
  info.erase("b");
  CHECK(info.nthkey(0) == "a");
  char out[4];
  mpi::copy_value("round", 3, out);
  CHECK(std::string(out) == "rou");
  CHECK(class_of([&] { mpi::copy_value("x", -1, out); }) == ErrorClass::arg);
}

TEST_CASE("a communicator's hints are the four assertions, false unless given") {
  mpi::Info given;
  given.set("mpi_assert_no_any_tag", "true");
  given.set("something_else", "1");
  const mpi::Info h = mpi::communicator_hints(nullptr, &given);
  CHECK(h.nkeys() == 4);
  CHECK(*h.get("mpi_assert_no_any_tag") == "true");
  CHECK(*h.get("mpi_assert_exact_length") == "false");
  CHECK(!h.get("something_else"));
  CHECK(*mpi::communicator_hints(&h, nullptr).get("mpi_assert_no_any_tag") == "true");
}

TEST_CASE("attributes: copy on duplicate, delete on set over, delete and free, the last set first") {
  deleted.clear();
  mpi::Attributes a;
  const int k1 = a.create_keyval(AttrObject::comm, keep_double, record_delete, nullptr);
  const int k2 = a.create_keyval(AttrObject::comm, nullptr, record_delete, nullptr);
  a.set(AttrObject::comm, 7, k1, reinterpret_cast<void*>(1));
  a.set(AttrObject::comm, 7, k1, reinterpret_cast<void*>(5));  // deletes 1
  a.set(AttrObject::comm, 7, k2, reinterpret_cast<void*>(9));
  CHECK(deleted == std::vector<long>{1});
  a.copy(AttrObject::comm, 7, 8);
  CHECK(reinterpret_cast<long>(*a.get(AttrObject::comm, 8, k1)) == 10);
  CHECK(!a.get(AttrObject::comm, 8, k2));  // a null copy function copies nothing
  int freed = k1;
  a.free_keyval(AttrObject::comm, freed);
  CHECK(freed == mpi::KEYVAL_INVALID);
  CHECK(reinterpret_cast<long>(*a.get(AttrObject::comm, 7, k1)) == 5);  // a freed key's values stay
  CHECK(class_of([&] { a.set(AttrObject::comm, 7, k1, nullptr); }) == ErrorClass::keyval);
  a.erase_all(AttrObject::comm, 7);
  CHECK(deleted == std::vector<long>{1, 9, 5});
  a.erase(AttrObject::comm, 7, k2);  // nothing there: nothing happens
  CHECK(class_of([&] { a.set(AttrObject::datatype, 7, k2, nullptr); }) == ErrorClass::keyval);
  const int bad = a.create_keyval(AttrObject::comm, refuse, nullptr, nullptr);
  a.set(AttrObject::comm, 1, bad, nullptr);
  CHECK(class_of([&] { a.copy(AttrObject::comm, 1, 2); }) == ErrorClass::other);
}
