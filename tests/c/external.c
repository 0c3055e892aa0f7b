/* external32 (MPI-4.1 §13.5.2): the bytes MPI_Pack_external writes for values of
 * each kind of type (big-endian; MPI_LONG in 4 bytes, MPI_WCHAR in 2, long double
 * as IEEE binary128), MPI_Pack_external_size, and the values MPI_Unpack_external
 * gives back. Each rank packs values of its own. (MPICH 4.0 stops on an assertion
 * when it packs MPI_WCHAR; the unit tests check its 2 bytes.) */
#include <complex.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void show(int rank, const char* what, const unsigned char* b, MPI_Aint n) {
  printf("rank %d %s (%ld):", rank, what, (long)n);
  for (MPI_Aint i = 0; i < n; ++i) printf(" %02x", b[i]);
  printf("\n");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  unsigned char out[256];
  MPI_Aint pos, back_pos;

  long l[3] = {rank + 1L, -300L - rank, 0x0102030405060708L};
  pos = 0;
  MPI_Pack_external("external32", l, 3, MPI_LONG, out, sizeof out, &pos);
  show(rank, "MPI_LONG", out, pos);
  long lb[3];
  back_pos = 0;
  MPI_Unpack_external("external32", out, pos, &back_pos, lb, 3, MPI_LONG);
  printf("rank %d MPI_LONG back %ld %ld %lx\n", rank, lb[0], lb[1], (unsigned long)lb[2]);

  unsigned long ul[2] = {4000000000UL + (unsigned long)rank, 7};
  pos = 0;
  MPI_Pack_external("external32", ul, 2, MPI_UNSIGNED_LONG, out, sizeof out, &pos);
  unsigned long ulb[2];
  back_pos = 0;
  MPI_Unpack_external("external32", out, pos, &back_pos, ulb, 2, MPI_UNSIGNED_LONG);
  show(rank, "MPI_UNSIGNED_LONG", out, pos);
  printf("rank %d MPI_UNSIGNED_LONG back %lu %lu\n", rank, ulb[0], ulb[1]);

  short sh[2] = {(short)(-2 - rank), 513};
  int in[2] = {rank * 1000 - 1, 65536};
  pos = 0;
  MPI_Pack_external("external32", sh, 2, MPI_SHORT, out, sizeof out, &pos);
  MPI_Pack_external("external32", in, 2, MPI_INT, out, sizeof out, &pos);
  show(rank, "MPI_SHORT MPI_INT", out, pos);

  float f[2] = {1.5f + (float)rank, -0.25f};
  double d[2] = {3.0 + rank, 1e-300};
  pos = 0;
  MPI_Pack_external("external32", f, 2, MPI_FLOAT, out, sizeof out, &pos);
  MPI_Pack_external("external32", d, 2, MPI_DOUBLE, out, sizeof out, &pos);
  show(rank, "MPI_FLOAT MPI_DOUBLE", out, pos);

  long double ld[4] = {1.5L + rank, -2.0L, 1e-4000L, 0.0L};
  pos = 0;
  MPI_Pack_external("external32", ld, 4, MPI_LONG_DOUBLE, out, sizeof out, &pos);
  show(rank, "MPI_LONG_DOUBLE", out, pos);
  long double ldb[4];
  back_pos = 0;
  MPI_Unpack_external("external32", out, pos, &back_pos, ldb, 4, MPI_LONG_DOUBLE);
  printf("rank %d MPI_LONG_DOUBLE back %Lg %Lg %Lg %Lg\n", rank, ldb[0], ldb[1], ldb[2], ldb[3]);

  double complex z = (1.0 + rank) - 2.0 * I;
  int64_t i8 = -((int64_t)1 << 40) - rank;
  _Bool flag = rank % 2;
  pos = 0;
  MPI_Pack_external("external32", &z, 1, MPI_C_DOUBLE_COMPLEX, out, sizeof out, &pos);
  MPI_Pack_external("external32", &i8, 1, MPI_INT64_T, out, sizeof out, &pos);
  MPI_Pack_external("external32", &flag, 1, MPI_C_BOOL, out, sizeof out, &pos);
  show(rank, "MPI_C_DOUBLE_COMPLEX MPI_INT64_T MPI_C_BOOL", out, pos);

  /* A derived type: a vector of two blocks of (int, skip one). */
  MPI_Datatype v;
  MPI_Type_vector(2, 1, 2, MPI_INT, &v);
  MPI_Type_commit(&v);
  int grid[4] = {10 + rank, 11, 12 + rank, 13};
  pos = 0;
  MPI_Pack_external("external32", grid, 1, v, out, sizeof out, &pos);
  show(rank, "vector", out, pos);
  int into[4] = {-1, -1, -1, -1};
  back_pos = 0;
  MPI_Unpack_external("external32", out, pos, &back_pos, into, 1, v);
  printf("rank %d vector back %d %d %d %d\n", rank, into[0], into[1], into[2], into[3]);
  MPI_Type_free(&v);

  MPI_Datatype kinds[] = {MPI_CHAR, MPI_WCHAR, MPI_SHORT, MPI_INT, MPI_LONG, MPI_UNSIGNED_LONG, MPI_LONG_LONG,
                          MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_C_BOOL, MPI_AINT, MPI_C_FLOAT_COMPLEX,
                          MPI_C_LONG_DOUBLE_COMPLEX, MPI_INTEGER, MPI_LOGICAL, MPI_REAL, MPI_DOUBLE_PRECISION,
                          MPI_BYTE, MPI_PACKED};
  printf("rank %d sizes of 3:", rank);
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
    MPI_Aint size;
    MPI_Pack_external_size("external32", 3, kinds[k], &size);
    printf(" %ld", (long)size);
  }
  printf("\n");
  MPI_Finalize();
  return 0;
}
