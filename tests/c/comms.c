/* Communicators made by splitting and duplicating: collectives and messages on them. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Comm half, dup, none;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half); /* reversed order within each half */
  int hrank, hsize, sum = 0;
  MPI_Comm_rank(half, &hrank);
  MPI_Comm_size(half, &hsize);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half);
  printf("rank %d: half %d, rank %d of %d, sum %d\n", rank, rank % 2, hrank, hsize, sum);

  MPI_Comm_dup(half, &dup);
  int same, other, inter;
  MPI_Comm_compare(half, dup, &same);
  MPI_Comm_compare(half, MPI_COMM_WORLD, &other);
  MPI_Comm_test_inter(dup, &inter);
  int token = hrank == 0 ? 1000 + rank : -1;
  MPI_Bcast(&token, 1, MPI_INT, 0, dup);
  if (hsize > 1) {
    /* a message on dup does not match a receive on half */
    int v = rank, w = -1;
    if (hrank == 0) MPI_Send(&v, 1, MPI_INT, 1, 5, dup);
    if (hrank == 1) {
      MPI_Status st;
      MPI_Recv(&w, 1, MPI_INT, MPI_ANY_SOURCE, 5, dup, &st);
      printf("rank %d: got %d from %d on dup\n", rank, w, st.MPI_SOURCE);
    }
  }
  printf("rank %d: compare dup %d, world %d, inter %d, token %d\n", rank, same, other, inter, token);

  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &none);
  printf("rank %d: undefined color gives null %d\n", rank, none == MPI_COMM_NULL);
  if (none != MPI_COMM_NULL) MPI_Comm_free(&none);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&half);
  printf("rank %d: freed %d %d\n", rank, dup == MPI_COMM_NULL, half == MPI_COMM_NULL);
  MPI_Finalize();
  return 0;
}
