/* A matrix column sent with a vector type; sizes and extents. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int m[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) m[i][j] = rank == 0 ? i * 4 + j : -1;
  MPI_Datatype column, pair;
  MPI_Type_vector(4, 1, 4, MPI_INT, &column);
  MPI_Type_commit(&column);
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  int tsize;
  MPI_Aint lb, extent;
  MPI_Type_size(column, &tsize);
  MPI_Type_get_extent(column, &lb, &extent);
  if (rank == 0) printf("column: size %d lb %ld extent %ld\n", tsize, (long)lb, (long)extent);
  if (rank == 0) {
    for (int r = 1; r < size; ++r) MPI_Send(&m[0][r % 4], 1, column, r, 0, MPI_COMM_WORLD);
  } else {
    int col[4];
    MPI_Recv(col, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d: column %d = %d %d %d %d\n", rank, rank % 4, col[0], col[1], col[2], col[3]);
  }
  int two[2] = {rank, -rank}, all[64];
  MPI_Allgather(two, 1, pair, all, 1, pair, MPI_COMM_WORLD);
  if (rank == size - 1) {
    printf("pairs:");
    for (int i = 0; i < 2 * size; ++i) printf(" %d", all[i]);
    printf("\n");
  }
  MPI_Type_free(&column);
  MPI_Type_free(&pair);
  printf("rank %d: freed %d\n", rank, column == MPI_DATATYPE_NULL);
  MPI_Finalize();
  return 0;
}
