/* The large-count (_c) calls of MPI-4.1: point-to-point, collectives in their
 * three forms, datatypes, a user operation on MPI_Count lengths, and statuses
 * whose counts do not fit in an int. Each rank prints what it received. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void add_pairs(void *in, void *inout, MPI_Count *len, MPI_Datatype *type) {
  (void)type;
  const int *a = in;
  int *b = inout;
  for (MPI_Count i = 0; i < *len; ++i) b[i] = 2 * b[i] + a[i];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* point-to-point around a ring */
  int out[4], in[4] = {0, 0, 0, 0};
  for (int i = 0; i < 4; ++i) out[i] = 10 * rank + i;
  MPI_Request r;
  MPI_Status st;
  MPI_Irecv_c(in, 4, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &r);
  MPI_Send_c(out, 3, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD);
  MPI_Wait(&r, &st);
  MPI_Count got = -1;
  MPI_Get_count_c(&st, MPI_INT, &got);
  printf("rank %d: ring %d %d %d count %lld\n", rank, in[0], in[1], in[2], (long long)got);

  /* collectives */
  MPI_Count n = 3;
  int b[3] = {rank, rank, rank};
  MPI_Bcast_c(b, n, MPI_INT, size - 1, MPI_COMM_WORLD);
  int sum[3];
  MPI_Allreduce_c(b, sum, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d: bcast %d allreduce %d\n", rank, b[0], sum[2]);

  MPI_Count *counts = malloc(sizeof(MPI_Count) * size);
  MPI_Aint *displs = malloc(sizeof(MPI_Aint) * size);
  int *send = malloc(sizeof(int) * 2 * size), *recv = malloc(sizeof(int) * 2 * size);
  for (int i = 0; i < size; ++i) {
    counts[i] = 2;
    displs[i] = 2 * (size - 1 - i);
    send[2 * i] = 100 * rank + i;
    send[2 * i + 1] = -(100 * rank + i);
  }
  MPI_Alltoallv_c(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD);
  printf("rank %d: alltoallv from 0: %d %d\n", rank, recv[2 * (size - 1)], recv[2 * (size - 1) + 1]);

  int one = rank + 1;
  MPI_Request req;
  MPI_Iexscan_c(&one, &b[0], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  if (rank > 0) printf("rank %d: iexscan %d\n", rank, b[0]);

  int gathered[64];
  MPI_Allgather_init_c(&one, 1, MPI_INT, gathered, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  MPI_Start(&req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Request_free(&req);
  printf("rank %d: allgather_init last %d\n", rank, gathered[size - 1]);

  /* a user operation on MPI_Count lengths */
  MPI_Op op;
  MPI_Op_create_c(add_pairs, 0, &op);
  int v[2] = {rank, 1}, w[2];
  MPI_Reduce_c(v, w, 2, MPI_INT, op, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("rank 0: user op %d %d\n", w[0], w[1]);
  int loc[2] = {5, 6};
  MPI_Reduce_local_c(v, loc, 2, MPI_INT, op);
  printf("rank %d: reduce_local %d %d\n", rank, loc[0], loc[1]);
  MPI_Op_free(&op);

  /* datatypes */
  MPI_Datatype t, h;
  MPI_Type_contiguous_c(5, MPI_INT, &t);
  MPI_Count tsize, lb, extent;
  MPI_Type_size_c(t, &tsize);
  MPI_Type_get_extent_c(t, &lb, &extent);
  MPI_Count blocks[2] = {1, 2}, hdispls[2] = {0, 8};
  MPI_Type_create_hindexed_c(2, blocks, hdispls, MPI_INT, &h);
  MPI_Count hlb, hextent;
  MPI_Type_get_true_extent_c(h, &hlb, &hextent);
  printf("rank %d: contiguous size %lld extent %lld; hindexed true extent %lld\n", rank, (long long)tsize,
         (long long)extent, (long long)hextent);
  MPI_Type_free(&t);
  MPI_Type_free(&h);

  /* statuses with counts past an int: 2^62 + 5 bytes, 3e9 ints */
  MPI_Status big;
  MPI_Count elements = 0;
  int small = 0;
  MPI_Status_set_elements_x(&big, MPI_BYTE, ((MPI_Count)1 << 62) + 5);
  MPI_Get_elements_c(&big, MPI_BYTE, &elements);
  MPI_Get_count(&big, MPI_BYTE, &small);
  printf("rank %d: elements %lld count as int %s\n", rank, (long long)elements,
         small == MPI_UNDEFINED ? "MPI_UNDEFINED" : "a number");
  MPI_Status_set_elements_x(&big, MPI_INT, 3000000000LL);
  MPI_Get_count_c(&big, MPI_INT, &elements);
  printf("rank %d: ints %lld\n", rank, (long long)elements);

  free(counts);
  free(displs);
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
