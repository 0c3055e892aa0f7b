#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "model/mpi/error.hpp"
#include "model/mpi/op.hpp"
#include "model/mpi/type_constructors.hpp"

using namespace mpisim::mpi;

namespace {

struct Buffers {
  Memory mem;
  std::string na = "a", nb = "b";
  Address a, b;
  Buffers(const TypeRef& t, std::int64_t n) {
    a = mem.allocate(&na, t, n, PayloadMode::data);
    b = mem.allocate(&nb, t, n, PayloadMode::data);
  }
  template <typename T>
  void set(Address at, std::vector<T> v) { std::memcpy(mem.find(at, 1)->data.get(), v.data(), v.size() * sizeof(T)); }
  template <typename T>
  std::vector<T> get(Address at, std::size_t n) {
    std::vector<T> v(n);
    std::memcpy(v.data(), mem.find(at, 1)->data.get(), n * sizeof(T));
    return v;
  }
};

std::string op_error(const char* op, const char* type, std::int64_t count = 1) {
  try {
    check_op_type(*predefined_op(op), *predefined_type(type), count, "op");
  } catch (const MpiError& e) {
    return error_class_name(e.error_class());
  }
  return "ok";
}

}  // namespace

TEST_CASE("each predefined operation acts only on the types of the standard's table") {
  CHECK(op_error("MPI_SUM", "MPI_DOUBLE") == "ok");
  CHECK(op_error("MPI_BAND", "MPI_DOUBLE") == "MPI_ERR_OP");
  CHECK(op_error("MPI_BAND", "MPI_BYTE") == "ok");
  CHECK(op_error("MPI_SUM", "MPI_BYTE") == "MPI_ERR_OP");
  CHECK(op_error("MPI_LAND", "MPI_C_BOOL") == "ok");
  CHECK(op_error("MPI_MAX", "MPI_C_BOOL") == "MPI_ERR_OP");
  CHECK(op_error("MPI_MAX", "MPI_CHAR") == "MPI_ERR_OP");
  CHECK(op_error("MPI_MAXLOC", "MPI_INT") == "MPI_ERR_OP");
  CHECK(op_error("MPI_MINLOC", "MPI_DOUBLE_INT") == "ok");
  CHECK(op_error("MPI_LXOR", "MPI_UNSIGNED_LONG") == "ok");
}

TEST_CASE("reduce_local computes inout = in op inout, wrapping signed overflow") {
  auto i = predefined_type("MPI_INT");
  Buffers b(i, 3);
  b.set<int>(b.a, {2147483647, -5, 6});
  b.set<int>(b.b, {1, 7, 6});
  reduce_local(*predefined_op("MPI_SUM"), {&b.mem, b.a, 3, i.get()}, {&b.mem, b.b, 3, i.get()});
  CHECK(b.get<int>(b.b, 3) == std::vector<int>{-2147483647 - 1, 2, 12});
  reduce_local(*predefined_op("MPI_BXOR"), {&b.mem, b.a, 3, i.get()}, {&b.mem, b.b, 3, i.get()});
  CHECK(b.get<int>(b.b, 3)[2] == (6 ^ 12));
}

TEST_CASE("an operation on a derived type acts on its basic elements") {
  auto i = predefined_type("MPI_INT");
  auto v = type_vector(2, 1, 2, i);
  v->commit();
  Buffers b(i, 4);
  b.set<int>(b.a, {1, 100, 2, 100});
  b.set<int>(b.b, {10, 0, 20, 0});
  reduce_local(*predefined_op("MPI_SUM"), {&b.mem, b.a, 1, v.get()}, {&b.mem, b.b, 1, v.get()});
  CHECK(b.get<int>(b.b, 4) == std::vector<int>{11, 0, 22, 0});
}

TEST_CASE("MINLOC on MPI_DOUBLE_INT: the smaller value, the smaller index on a tie") {
  auto di = predefined_type("MPI_DOUBLE_INT");
  Buffers b(predefined_type("MPI_BYTE"), 32);
  struct P { double v; int i; };
  b.set<P>(b.a, {{1.5, 3}, {2.0, 1}});
  b.set<P>(b.b, {{1.5, 7}, {1.0, 9}});
  reduce_local(*predefined_op("MPI_MINLOC"), {&b.mem, b.a, 2, di.get()}, {&b.mem, b.b, 2, di.get()});
  auto r = b.get<P>(b.b, 2);
  CHECK(r[0].v == 1.5);
  CHECK(r[0].i == 3);
  CHECK(r[1].v == 1.0);
  CHECK(r[1].i == 9);
}

TEST_CASE("user operations: a non-commutative matrix product and a commutative absolute maximum") {
  auto mm = make_user_op("mm", "matrix_product_2x2", false);
  REQUIRE(mm);
  CHECK_FALSE(mm->commutative);
  auto i = predefined_type("MPI_INT");
  Buffers b(i, 4);
  b.set<int>(b.a, {0, 1, 1, 0});
  b.set<int>(b.b, {1, 2, 3, 4});
  reduce_local(*mm, {&b.mem, b.a, 4, i.get()}, {&b.mem, b.b, 4, i.get()});
  CHECK(b.get<int>(b.b, 4) == std::vector<int>{3, 4, 1, 2});  // swaps rows: in x inout
  CHECK_THROWS_AS(check_op_type(*mm, *i, 3, "op"), MpiError);
  auto am = make_user_op("am", "absolute_max", true);
  b.set<int>(b.a, {-9, 1, 0, 5});
  b.set<int>(b.b, {3, -4, 0, -5});
  reduce_local(*am, {&b.mem, b.a, 4, i.get()}, {&b.mem, b.b, 4, i.get()});
  CHECK(b.get<int>(b.b, 4) == std::vector<int>{-9, -4, 0, -5});
  CHECK_FALSE(make_user_op("x", "no_such_function", true));
}

TEST_CASE("complex types: SUM and PROD only") {
  CHECK(op_error("MPI_SUM", "MPI_C_DOUBLE_COMPLEX") == "ok");
  CHECK(op_error("MPI_MAX", "MPI_C_DOUBLE_COMPLEX") == "MPI_ERR_OP");
  CHECK(predefined_type("MPI_C_COMPLEX")->size() == 8);
  auto z = predefined_type("MPI_C_DOUBLE_COMPLEX");
  Buffers b(z, 1);
  b.set<double>(b.a, {1, 2});
  b.set<double>(b.b, {3, -1});
  reduce_local(*predefined_op("MPI_PROD"), {&b.mem, b.a, 1, z.get()}, {&b.mem, b.b, 1, z.get()});
  CHECK(b.get<double>(b.b, 2) == std::vector<double>{5, 5});  // (1+2i)(3-i) = 5+5i
}

TEST_CASE("a datatype built from pair types is not split by MPI_SUM, nor taken by MPI_MAXLOC (as MPICH)") {
  auto pairs = type_contiguous(2, predefined_type("MPI_2INT"));
  auto resized = Datatype::make_resized("r", pairs, 0, 32);
  CHECK(pairs->contains_pair());
  CHECK_FALSE(pairs->pair());
  CHECK(resized->contains_pair());
  CHECK_FALSE(type_contiguous(2, predefined_type("MPI_INT"))->contains_pair());
  for (const char* op : {"MPI_SUM", "MPI_MAXLOC"}) {
    try {
      check_op_type(*predefined_op(op), *resized, 1, "op");
      FAIL("accepted ", op);
    } catch (const MpiError& e) {
      CHECK(e.error_class() == ErrorClass::op);
    }
  }
  CHECK_NOTHROW(check_op_type(*predefined_op("MPI_MAXLOC"), *predefined_type("MPI_2INT"), 1, "op"));
}

TEST_CASE("in place on contiguous buffers and through packed copies, each order gives the same values") {
  // A dense buffer takes the in-place loops; every other element of a vector type
  // takes the packed path. Signed zeros and NaNs tell the operand order of MAX and
  // MIN apart, ties that of MAXLOC and MINLOC.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> dx = {1.5, -0.0, 0.0, nan, 2.0, -3.0, 1e300, 7.0};
  const std::vector<double> dy = {2.5, 0.0, -0.0, 1.0, nan, -3.0, 1e300, -7.0};
  auto same_bits = [](const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
  };
  auto d = predefined_type("MPI_DOUBLE");
  auto strided = type_vector(8, 1, 2, d);
  strided->commit();
  for (const char* name : {"MPI_MAX", "MPI_MIN", "MPI_SUM", "MPI_PROD"})
    for (bool inout_first : {false, true}) {
      CAPTURE(std::string(name));
      CAPTURE(inout_first);
      const Op& op = *predefined_op(name);
      Buffers dense(d, 8);
      dense.set<double>(dense.a, dx);
      dense.set<double>(dense.b, dy);
      reduce_local(op, {&dense.mem, dense.a, 8, d.get()}, {&dense.mem, dense.b, 8, d.get()}, inout_first);
      Buffers packed(d, 16);
      std::vector<double> sx(16, 0.0), sy(16, 0.0);
      for (int k = 0; k < 8; ++k) sx[2 * k] = dx[k], sy[2 * k] = dy[k];
      packed.set<double>(packed.a, sx);
      packed.set<double>(packed.b, sy);
      reduce_local(op, {&packed.mem, packed.a, 1, strided.get()}, {&packed.mem, packed.b, 1, strided.get()}, inout_first);
      std::vector<double> got = packed.get<double>(packed.b, 16), every_other;
      for (int k = 0; k < 8; ++k) every_other.push_back(got[2 * k]);
      CHECK(same_bits(dense.get<double>(dense.b, 8), every_other));
      // And what the standard's order says, element by element.
      std::vector<double> want;
      for (int k = 0; k < 8; ++k) {
        double a = inout_first ? dy[k] : dx[k], b = inout_first ? dx[k] : dy[k];
        std::string_view n = name;
        want.push_back(n == "MPI_MAX" ? (a > b ? a : b) : n == "MPI_MIN" ? (a < b ? a : b) : n == "MPI_SUM" ? a + b : a * b);
      }
      CHECK(same_bits(every_other, want));
    }
  // MINLOC: on a tie of values the smaller index, whichever operand it is in.
  auto di = predefined_type("MPI_DOUBLE_INT");
  struct Pair {
    double v;
    int i;
  };
  for (bool inout_first : {false, true}) {
    Buffers b(di, 2);
    auto* x = reinterpret_cast<Pair*>(b.mem.find(b.a, 1)->data.get());
    auto* y = reinterpret_cast<Pair*>(b.mem.find(b.b, 1)->data.get());
    x[0] = {1.0, 5}, x[1] = {2.0, 1};
    y[0] = {1.0, 3}, y[1] = {0.5, 9};
    reduce_local(*predefined_op("MPI_MINLOC"), {&b.mem, b.a, 2, di.get()}, {&b.mem, b.b, 2, di.get()}, inout_first);
    CHECK(y[0].v == 1.0);
    CHECK(y[0].i == 3);
    CHECK(y[1].v == 0.5);
    CHECK(y[1].i == 9);
  }
}

TEST_CASE("reduce_pair does both partners' combines in one pass, each in its own order") {
  // Against two reduce_local calls on the old contents, bit for bit: signed zeros
  // and NaNs tell the orders of MAX and MIN apart. Longer than one pass's chunk.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> seed_x = {1.5, -0.0, 0.0, nan, 2.0, -3.0, 1e300, 7.0};
  const std::vector<double> seed_y = {2.5, 0.0, -0.0, 1.0, nan, -3.0, 1e300, -7.0};
  const std::int64_t n = 5000;
  std::vector<double> x0(n), y0(n);
  for (std::int64_t k = 0; k < n; ++k) {
    x0[static_cast<std::size_t>(k)] = seed_x[static_cast<std::size_t>(k % 8)];
    y0[static_cast<std::size_t>(k)] = seed_y[static_cast<std::size_t>((k * 3) % 8)];
  }
  auto d = predefined_type("MPI_DOUBLE");
  for (const char* name : {"MPI_MAX", "MPI_MIN", "MPI_SUM", "MPI_PROD"})
    for (bool x_first : {false, true})
      for (bool y_first : {false, true}) {
        CAPTURE(std::string(name));
        CAPTURE(x_first);
        CAPTURE(y_first);
        const Op& op = *predefined_op(name);
        Buffers pair(d, n);
        pair.set<double>(pair.a, x0);
        pair.set<double>(pair.b, y0);
        REQUIRE(reduce_pair(op, {&pair.mem, pair.a, n, d.get()}, x_first, {&pair.mem, pair.b, n, d.get()}, y_first));
        // x = x0 op y0 (x_first) or y0 op x0; y = y0 op x0 (y_first) or x0 op y0.
        Buffers want_x(d, n), want_y(d, n);
        want_x.set<double>(want_x.a, y0);
        want_x.set<double>(want_x.b, x0);
        reduce_local(op, {&want_x.mem, want_x.a, n, d.get()}, {&want_x.mem, want_x.b, n, d.get()}, x_first);
        want_y.set<double>(want_y.a, x0);
        want_y.set<double>(want_y.b, y0);
        reduce_local(op, {&want_y.mem, want_y.a, n, d.get()}, {&want_y.mem, want_y.b, n, d.get()}, y_first);
        const auto gx = pair.get<double>(pair.a, n), gy = pair.get<double>(pair.b, n);
        const auto wx = want_x.get<double>(want_x.b, n), wy = want_y.get<double>(want_y.b, n);
        CHECK(std::memcmp(gx.data(), wx.data(), gx.size() * sizeof(double)) == 0);
        CHECK(std::memcmp(gy.data(), wy.data(), gy.size() * sizeof(double)) == 0);
      }
  // Not for user operations, nor buffers that are not dense.
  Buffers b(d, 16);
  auto strided = type_vector(8, 1, 2, d);
  strided->commit();
  CHECK_FALSE(reduce_pair(*make_user_op("m", "absolute_max", true), {&b.mem, b.a, 8, d.get()}, false,
                          {&b.mem, b.b, 8, d.get()}, false));
  CHECK_FALSE(reduce_pair(*predefined_op("MPI_SUM"), {&b.mem, b.a, 1, strided.get()}, false,
                          {&b.mem, b.b, 1, strided.get()}, false));
}

TEST_CASE("reduce_into writes in op base to a third buffer, as a copy and a reduce_local would") {
  // Bit for bit, in both orders, over more than one chunk, with signed zeros and
  // NaNs; the base stays as it was. Then the general path: a user operation and a
  // strided type.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> seed_in = {1.5, -0.0, 0.0, nan, 2.0, -3.0, 1e300, 7.0};
  const std::vector<double> seed_base = {2.5, 0.0, -0.0, 1.0, nan, -3.0, 1e300, -7.0};
  const std::int64_t n = 5000;
  std::vector<double> in0(n), base0(n);
  for (std::int64_t k = 0; k < n; ++k) {
    in0[static_cast<std::size_t>(k)] = seed_in[static_cast<std::size_t>(k % 8)];
    base0[static_cast<std::size_t>(k)] = seed_base[static_cast<std::size_t>((k * 3) % 8)];
  }
  auto d = predefined_type("MPI_DOUBLE");
  auto strided = type_vector(n / 2, 1, 2, d);
  strided->commit();
  const OpRef user = make_user_op("m", "absolute_max", true);
  struct Way {
    const Op* op;
    const Datatype* type;
    std::int64_t count;
  };
  const Way ways[] = {{predefined_op("MPI_MAX").get(), d.get(), n},  {predefined_op("MPI_MIN").get(), d.get(), n},
                      {predefined_op("MPI_SUM").get(), d.get(), n},  {predefined_op("MPI_PROD").get(), d.get(), n},
                      {user.get(), d.get(), n},                      {predefined_op("MPI_SUM").get(), strided.get(), 1}};
  for (const Way& w : ways)
    for (bool base_first : {false, true}) {
      CAPTURE(w.op->name);
      CAPTURE(w.type->name());
      CAPTURE(base_first);
      Buffers got(d, n), out(d, n);
      got.set<double>(got.a, in0);
      got.set<double>(got.b, base0);
      out.set<double>(out.a, std::vector<double>(n, 42.0));  // written by the call, where the type reaches
      reduce_into(*w.op, {&got.mem, got.a, w.count, w.type}, {&got.mem, got.b, w.count, w.type},
                  {&out.mem, out.a, w.count, w.type}, base_first);
      Buffers want(d, n);
      want.set<double>(want.a, in0);
      want.set<double>(want.b, std::vector<double>(n, 42.0));
      copy_typed({&got.mem, got.b, w.count, w.type}, {&want.mem, want.b, w.count, w.type}, w.count * w.type->size());
      reduce_local(*w.op, {&want.mem, want.a, w.count, w.type}, {&want.mem, want.b, w.count, w.type}, base_first);
      const auto g = out.get<double>(out.a, n), wv = want.get<double>(want.b, n), b = got.get<double>(got.b, n);
      CHECK(std::memcmp(g.data(), wv.data(), g.size() * sizeof(double)) == 0);
      CHECK(std::memcmp(b.data(), base0.data(), b.size() * sizeof(double)) == 0);
    }
}
