// external32 (MPI-4.1 §13.5.2): sizes, byte order and the conversions of the
// types whose size differs from this platform's.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "model/mpi/error.hpp"
#include "model/mpi/external32.hpp"

using namespace mpisim::mpi;

namespace {

// Packs `n` elements of `type` from `values` and returns the external bytes.
template <typename T>
std::vector<unsigned char> packed(const char* type_name, const std::vector<T>& values) {
  Memory mem;
  std::string in_name = "in", out_name = "out";
  TypeRef t = predefined_type(type_name);
  const auto n = static_cast<std::int64_t>(values.size());
  Address in = mem.allocate(&in_name, t, n, PayloadMode::data);
  std::memcpy(mem.find(in, 1)->data.get(), values.data(), values.size() * sizeof(T));
  Address out = mem.allocate(&out_name, predefined_type("MPI_BYTE"), 128, PayloadMode::data);
  std::int64_t position = 0;
  pack_external(mem, PayloadMode::data, "external32", in, n, t, out, 128, position);
  const auto* p = reinterpret_cast<const unsigned char*>(mem.find(out, 1)->data.get());
  std::vector<unsigned char> bytes(p, p + position);
  // And back: the same values (or the narrowed ones) must come out.
  Address back = mem.allocate(&in_name, t, n, PayloadMode::data);
  std::int64_t at = 0;
  unpack_external(mem, PayloadMode::data, "external32", out, position, at, back, n, t);
  CHECK(at == position);
  return bytes;
}

}  // namespace

TEST_CASE("external32 sizes: MPI_LONG in 4 bytes, MPI_WCHAR in 2, the pairs as their parts") {
  CHECK(pack_external_size("external32", 3, *predefined_type("MPI_LONG")) == 12);
  CHECK(pack_external_size("external32", 3, *predefined_type("MPI_WCHAR")) == 6);
  CHECK(pack_external_size("external32", 1, *predefined_type("MPI_LONG_DOUBLE")) == 16);
  CHECK(pack_external_size("external32", 2, *predefined_type("MPI_2INT")) == 16);
  CHECK(pack_external_size("external32", 1, *predefined_type("MPI_LONG_INT")) == 8);  // a 4-byte long and an int
  CHECK(pack_external_size("external32", 1, *predefined_type("MPI_DOUBLE_INT")) == 12);
  CHECK_THROWS_AS(pack_external_size("native", 1, *predefined_type("MPI_INT")), MpiError);
  CHECK_THROWS_AS(pack_external_size("external32", -1, *predefined_type("MPI_INT")), MpiError);
}

TEST_CASE("external32 bytes are big-endian, narrowed integers keep their low bytes") {
  CHECK(packed<int>("MPI_INT", {0x01020304}) == std::vector<unsigned char>{1, 2, 3, 4});
  CHECK(packed<long>("MPI_LONG", {-2}) == std::vector<unsigned char>{0xff, 0xff, 0xff, 0xfe});
  CHECK(packed<wchar_t>("MPI_WCHAR", {0x263a}) == std::vector<unsigned char>{0x26, 0x3a});
  CHECK(packed<double>("MPI_DOUBLE", {1.5}) == std::vector<unsigned char>{0x3f, 0xf8, 0, 0, 0, 0, 0, 0});
}

TEST_CASE("external32 long double is IEEE binary128, and comes back exactly") {
  const std::vector<long double> values = {1.5L, -2.0L, 1e-4940L, std::numeric_limits<long double>::infinity(), 0.0L};
  auto b = packed<long double>("MPI_LONG_DOUBLE", values);
  REQUIRE(b.size() == 80);
  CHECK(std::vector<unsigned char>(b.begin(), b.begin() + 4) == std::vector<unsigned char>{0x3f, 0xff, 0x80, 0});
  CHECK(std::vector<unsigned char>(b.begin() + 48, b.begin() + 52) == std::vector<unsigned char>{0x7f, 0xff, 0, 0});
  Memory mem;
  std::string a = "a", o = "o", r = "r";
  TypeRef t = predefined_type("MPI_LONG_DOUBLE");
  Address in = mem.allocate(&a, t, 5, PayloadMode::data);
  std::memcpy(mem.find(in, 1)->data.get(), values.data(), 5 * sizeof(long double));
  Address out = mem.allocate(&o, predefined_type("MPI_BYTE"), 80, PayloadMode::data);
  Address back = mem.allocate(&r, t, 5, PayloadMode::data);
  std::int64_t p = 0, q = 0;
  pack_external(mem, PayloadMode::data, "external32", in, 5, t, out, 80, p);
  unpack_external(mem, PayloadMode::data, "external32", out, 80, q, back, 5, t);
  long double got[5];
  std::memcpy(got, mem.find(back, 1)->data.get(), sizeof got);
  for (int i = 0; i < 5; ++i) CHECK(got[i] == values[static_cast<std::size_t>(i)]);  // the subnormal too
}

TEST_CASE("external32 unpack sign-extends the narrowed signed integers") {
  Memory mem;
  std::string a = "a", o = "o";
  TypeRef t = predefined_type("MPI_LONG");
  Address out = mem.allocate(&o, t, 2, PayloadMode::data);
  Address in = mem.allocate(&a, predefined_type("MPI_BYTE"), 8, PayloadMode::data);
  const unsigned char bytes[8] = {0xff, 0xff, 0xfe, 0xd4, 0x7f, 0xff, 0xff, 0xff};
  std::memcpy(mem.find(in, 1)->data.get(), bytes, 8);
  std::int64_t at = 0;
  unpack_external(mem, PayloadMode::data, "external32", in, 8, at, out, 2, t);
  long got[2];
  std::memcpy(got, mem.find(out, 1)->data.get(), sizeof got);
  CHECK(got[0] == -300);
  CHECK(got[1] == 2147483647);
}

TEST_CASE("external32 data past outsize is MPI_ERR_TRUNCATE") {
  Memory mem;
  std::string a = "a", o = "o";
  TypeRef t = predefined_type("MPI_LONG");
  Address in = mem.allocate(&a, t, 3, PayloadMode::data);
  Address out = mem.allocate(&o, predefined_type("MPI_BYTE"), 16, PayloadMode::data);
  std::int64_t position = 8;
  try {
    pack_external(mem, PayloadMode::data, "external32", in, 3, t, out, 16, position);
    FAIL("no error");
  } catch (const MpiError& e) {
    CHECK(e.error_class() == ErrorClass::truncate);
  }
  CHECK(position == 8);
}
