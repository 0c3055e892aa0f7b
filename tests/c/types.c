/* Every predefined datatype: its size, bounds and extent, and a few reductions on
 * the Fortran and C++ types. With the argument "ops", which predefined reduction
 * operations take each type (MPI-4.1 §6.9.2), found by MPI_Reduce_local under
 * MPI_ERRORS_RETURN: MPICH 4.0 stops on an assertion for MPI_LAND on MPI_FLOAT and
 * takes every operation on MPI_CHAR, so that part is checked against the expected
 * file only. */
#include <complex.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct named {
  MPI_Datatype type;
  const char* name;
};

static const struct named types[] = {
    {MPI_CHAR, "MPI_CHAR"}, {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR"}, {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR"},
    {MPI_BYTE, "MPI_BYTE"}, {MPI_WCHAR, "MPI_WCHAR"}, {MPI_SHORT, "MPI_SHORT"},
    {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT"}, {MPI_INT, "MPI_INT"}, {MPI_UNSIGNED, "MPI_UNSIGNED"},
    {MPI_LONG, "MPI_LONG"}, {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG"}, {MPI_FLOAT, "MPI_FLOAT"},
    {MPI_DOUBLE, "MPI_DOUBLE"}, {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE"}, {MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT"},
    {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG"}, {MPI_PACKED, "MPI_PACKED"},
    {MPI_FLOAT_INT, "MPI_FLOAT_INT"}, {MPI_DOUBLE_INT, "MPI_DOUBLE_INT"}, {MPI_LONG_INT, "MPI_LONG_INT"},
    {MPI_SHORT_INT, "MPI_SHORT_INT"}, {MPI_2INT, "MPI_2INT"}, {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT"},
    {MPI_INT8_T, "MPI_INT8_T"}, {MPI_INT16_T, "MPI_INT16_T"}, {MPI_INT32_T, "MPI_INT32_T"},
    {MPI_INT64_T, "MPI_INT64_T"}, {MPI_UINT8_T, "MPI_UINT8_T"}, {MPI_UINT16_T, "MPI_UINT16_T"},
    {MPI_UINT32_T, "MPI_UINT32_T"}, {MPI_UINT64_T, "MPI_UINT64_T"}, {MPI_C_BOOL, "MPI_C_BOOL"},
    {MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX"}, {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX"},
    {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX"}, {MPI_AINT, "MPI_AINT"}, {MPI_OFFSET, "MPI_OFFSET"},
    {MPI_COUNT, "MPI_COUNT"}, {MPI_CHARACTER, "MPI_CHARACTER"}, {MPI_INTEGER, "MPI_INTEGER"},
    {MPI_REAL, "MPI_REAL"}, {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION"}, {MPI_COMPLEX, "MPI_COMPLEX"},
    {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX"}, {MPI_LOGICAL, "MPI_LOGICAL"}, {MPI_2INTEGER, "MPI_2INTEGER"},
    {MPI_2REAL, "MPI_2REAL"}, {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION"}, {MPI_INTEGER1, "MPI_INTEGER1"},
    {MPI_INTEGER2, "MPI_INTEGER2"}, {MPI_INTEGER4, "MPI_INTEGER4"}, {MPI_INTEGER8, "MPI_INTEGER8"},
    {MPI_REAL4, "MPI_REAL4"}, {MPI_REAL8, "MPI_REAL8"}, {MPI_COMPLEX8, "MPI_COMPLEX8"},
    {MPI_COMPLEX16, "MPI_COMPLEX16"}, {MPI_CXX_BOOL, "MPI_CXX_BOOL"},
    {MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX"}, {MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX"},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX"},
};

static const struct {
  MPI_Op op;
  const char* name;
} ops[] = {{MPI_MAX, "MAX"},   {MPI_MIN, "MIN"}, {MPI_SUM, "SUM"},   {MPI_PROD, "PROD"},     {MPI_LAND, "LAND"},
           {MPI_BAND, "BAND"}, {MPI_LOR, "LOR"}, {MPI_BOR, "BOR"},   {MPI_LXOR, "LXOR"},     {MPI_BXOR, "BXOR"},
           {MPI_MAXLOC, "MAXLOC"}, {MPI_MINLOC, "MINLOC"}};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  static unsigned char in[64], inout[64];
  for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
    int size;
    MPI_Aint lb, extent;
    MPI_Type_size(types[t].type, &size);
    MPI_Type_get_extent(types[t].type, &lb, &extent);
    char line[512];
    int n = snprintf(line, sizeof line, "%s size %d lb %ld extent %ld", types[t].name, size, (long)lb, (long)extent);
    if (argc > 1 && strcmp(argv[1], "ops") == 0) n += snprintf(line + n, sizeof line - (size_t)n, ":");
    for (size_t o = 0; argc > 1 && strcmp(argv[1], "ops") == 0 && o < sizeof ops / sizeof ops[0]; ++o) {
      memset(in, 0, sizeof in);
      memset(inout, 0, sizeof inout);
      int rc = MPI_Reduce_local(in, inout, 1, types[t].type, ops[o].op);
      if (rc == MPI_SUCCESS) n += snprintf(line + n, sizeof line - (size_t)n, " %s", ops[o].name);
    }
    printf("%s\n", line);
  }

  /* Values: the Fortran types as gfortran lays them out on this platform. */
  int32_t integer_in[2] = {3, -7}, integer_io[2] = {4, 5};
  MPI_Reduce_local(integer_in, integer_io, 2, MPI_INTEGER, MPI_SUM);
  printf("INTEGER sum %d %d\n", integer_io[0], integer_io[1]);
  int32_t logical_in[3] = {1, 0, 1}, logical_io[3] = {1, 1, 0};
  MPI_Reduce_local(logical_in, logical_io, 3, MPI_LOGICAL, MPI_LAND);
  printf("LOGICAL land %d %d %d\n", logical_io[0], logical_io[1], logical_io[2]);
  MPI_Reduce_local(logical_in, logical_io, 3, MPI_LOGICAL, MPI_LXOR);
  printf("LOGICAL lxor %d %d %d\n", logical_io[0], logical_io[1], logical_io[2]);
  float real_in[2] = {2.5f, 7.0f}, real_io[2] = {2.5f, 1.0f};
  MPI_Reduce_local(real_in, real_io, 2, MPI_REAL, MPI_PROD);
  printf("REAL prod %g %g\n", real_io[0], real_io[1]);
  float pair_in[4] = {5.0f, 2.0f, 1.0f, 9.0f}, pair_io[4] = {5.0f, 1.0f, 3.0f, 8.0f};
  MPI_Reduce_local(pair_in, pair_io, 2, MPI_2REAL, MPI_MAXLOC);
  printf("2REAL maxloc (%g, %g) (%g, %g)\n", pair_io[0], pair_io[1], pair_io[2], pair_io[3]);
  double dpair_in[2] = {-1.5, 4.0}, dpair_io[2] = {-1.5, 6.0};
  MPI_Reduce_local(dpair_in, dpair_io, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC);
  printf("2DOUBLE_PRECISION minloc (%g, %g)\n", dpair_io[0], dpair_io[1]);
  int32_t ipair_in[2] = {10, 3}, ipair_io[2] = {11, 0};
  MPI_Reduce_local(ipair_in, ipair_io, 1, MPI_2INTEGER, MPI_MINLOC);
  printf("2INTEGER minloc (%d, %d)\n", ipair_io[0], ipair_io[1]);
  float complex c_in = 1.0f + 2.0f * I, c_io = 3.0f - 1.0f * I;
  MPI_Reduce_local(&c_in, &c_io, 1, MPI_COMPLEX, MPI_PROD);
  printf("COMPLEX prod %g%+gi\n", crealf(c_io), cimagf(c_io));
  double complex z_in = 0.5 + 0.25 * I, z_io = 2.0 + 2.0 * I;
  MPI_Reduce_local(&z_in, &z_io, 1, MPI_CXX_DOUBLE_COMPLEX, MPI_SUM);
  printf("CXX_DOUBLE_COMPLEX sum %g%+gi\n", creal(z_io), cimag(z_io));
  int64_t i8_in = -5, i8_io = 12;
  MPI_Reduce_local(&i8_in, &i8_io, 1, MPI_INTEGER8, MPI_BAND);
  printf("INTEGER8 band %lld\n", (long long)i8_io);
  _Bool b_in = 1, b_io = 0;
  MPI_Reduce_local(&b_in, &b_io, 1, MPI_CXX_BOOL, MPI_LOR);
  printf("CXX_BOOL lor %d\n", (int)b_io);

  /* Matching: an INTEGER message is received as INTEGER, not as INT. */
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int32_t v = 40 + rank, got = -1;
  MPI_Sendrecv(&v, 1, MPI_INTEGER, rank, 0, &got, 1, MPI_INTEGER, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  printf("rank %d: INTEGER to itself %d\n", rank, got);
  MPI_Finalize();
  return 0;
}
