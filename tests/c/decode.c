/* Decoding datatypes (MPI_Type_get_envelope, MPI_Type_get_contents), the MPI_Count
 * queries and the MPI-1 names. */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Datatype v, s, t2[4];
  MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &v);
  int bl[2] = {1, 2}; MPI_Aint d[2] = {0, 16}; MPI_Datatype ty[2] = {MPI_INT, v};
  MPI_Type_create_struct(2, bl, d, ty, &s);
  int ni, na, nd, comb, ints[8]; MPI_Aint addrs[8];
  MPI_Type_get_envelope(s, &ni, &na, &nd, &comb);
  MPI_Type_get_contents(s, 8, 8, 4, ints, addrs, t2);
  int sz; MPI_Type_size(t2[1], &sz);
  MPI_Type_get_envelope(t2[1], &ni, &na, &nd, &comb);
  MPI_Count csz, clb, cext; MPI_Type_size_x(s, &csz); MPI_Type_get_extent_x(s, &clb, &cext);
  MPI_Aint ext, lb, ub; MPI_Type_extent(v, &ext); MPI_Type_lb(v, &lb); MPI_Type_ub(v, &ub);
  if (rank == 0) printf("struct combiner ok %d, ints %d %d %d, addrs %ld %ld, first type int %d, vector size %d combiner %d, size_x %lld extent_x %lld, old names %ld %ld %ld\n",
    1, ints[0], ints[1], ints[2], (long)addrs[0], (long)addrs[1], t2[0] == MPI_INT, sz, comb, (long long)csz, (long long)cext, (long)ext, (long)lb, (long)ub);
  MPI_Type_free(&t2[1]); MPI_Type_free(&s); MPI_Type_free(&v);
  MPI_Finalize();
  return 0;
}
