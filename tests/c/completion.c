/* Buffered sends, the completion calls on arrays, MPI_Alltoallw and the vector
 * forms of the nonblocking collectives. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  /* MPI_Bsend from an attached buffer. */
  int bsize = 2 * (sizeof(int) + MPI_BSEND_OVERHEAD);
  char *pool = malloc(bsize);
  MPI_Buffer_attach(pool, bsize);
  int v = rank * 3, w = -1;
  MPI_Bsend(&v, 1, MPI_INT, right, 4, MPI_COMM_WORLD);
  MPI_Recv(&w, 1, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  void *back;
  int back_size;
  MPI_Buffer_detach(&back, &back_size);
  printf("rank %d: bsend got %d, detached %d bytes, same pool %d\n", rank, w, back_size, back == (void *)pool);
  free(pool);

  /* Waitsome, Testany, Request_get_status. */
  int in[2] = {-1, -1}, out[2] = {rank, rank + 100};
  MPI_Request r[4];
  MPI_Irecv(&in[0], 1, MPI_INT, left, 1, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(&in[1], 1, MPI_INT, right, 2, MPI_COMM_WORLD, &r[1]);
  MPI_Isend(&out[0], 1, MPI_INT, right, 1, MPI_COMM_WORLD, &r[2]);
  MPI_Isend(&out[1], 1, MPI_INT, left, 2, MPI_COMM_WORLD, &r[3]);
  int done = 0, outcount, idx[4];
  MPI_Status st[4];
  while (done < 4) {
    MPI_Waitsome(4, r, &outcount, idx, st);
    if (outcount == MPI_UNDEFINED) break;
    done += outcount;
  }
  printf("rank %d: waitsome %d %d, all null %d\n", rank, in[0], in[1],
         r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL && r[2] == MPI_REQUEST_NULL && r[3] == MPI_REQUEST_NULL);
  MPI_Irecv(&in[0], 1, MPI_INT, left, 5, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(&out[0], 1, MPI_INT, right, 5, MPI_COMM_WORLD, &r[1]);
  int flag = 0, index = -1, seen = 0;
  MPI_Status s;
  while (seen < 2) {
    MPI_Testany(2, r, &index, &flag, &s);
    if (flag && index != MPI_UNDEFINED) ++seen;
    if (flag && index == MPI_UNDEFINED) break;
  }
  MPI_Request_get_status(r[0], &flag, &s);
  printf("rank %d: testany got %d, get_status on null %d\n", rank, in[0], flag);
  MPI_Irecv(&in[1], 1, MPI_INT, left, 6, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(&out[1], 1, MPI_INT, right, 6, MPI_COMM_WORLD, &r[1]);
  seen = 0;
  while (seen < 2) {
    MPI_Testsome(2, r, &outcount, idx, st);
    if (outcount == MPI_UNDEFINED) break;
    seen += outcount;
  }
  printf("rank %d: testsome got %d\n", rank, in[1]);

  /* Alltoallw: to rank j, j+1 ints of mine; from rank j, j... as MPI_INT or MPI_BYTE. */
  int n = size;
  int *sc = malloc(sizeof(int) * n), *sd = malloc(sizeof(int) * n), *rc = malloc(sizeof(int) * n),
      *rd = malloc(sizeof(int) * n);
  MPI_Datatype *stypes = malloc(sizeof(MPI_Datatype) * n), *rtypes = malloc(sizeof(MPI_Datatype) * n);
  int *src = malloc(sizeof(int) * n), *dst = malloc(sizeof(int) * n);
  for (int j = 0; j < n; ++j) {
    src[j] = rank * 10 + j, dst[j] = -1;
    sc[j] = 1, sd[j] = j * (int)sizeof(int), stypes[j] = MPI_INT;
    rc[j] = (int)sizeof(int), rd[j] = j * (int)sizeof(int), rtypes[j] = MPI_BYTE;
  }
  /* MPI_INT on one side and bytes on the other differ in type signature: keep both MPI_INT */
  for (int j = 0; j < n; ++j) rc[j] = 1, rtypes[j] = MPI_INT;
  MPI_Alltoallw(src, sc, sd, stypes, dst, rc, rd, rtypes, MPI_COMM_WORLD);
  printf("rank %d: alltoallw first %d last %d\n", rank, dst[0], dst[n - 1]);

  /* The vector forms, nonblocking. */
  int *counts = malloc(sizeof(int) * n), *displs = malloc(sizeof(int) * n), *all = malloc(sizeof(int) * n * n);
  for (int j = 0; j < n; ++j) counts[j] = j + 1, displs[j] = j * (j + 1) / 2;
  int mine[64];
  for (int i = 0; i <= rank; ++i) mine[i] = rank * 100 + i;
  MPI_Request q;
  MPI_Iallgatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  printf("rank %d: iallgatherv last %d\n", rank, all[n * (n + 1) / 2 - 1]);
  MPI_Igatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  if (rank == 0) printf("igatherv at root: %d %d\n", all[0], all[n * (n + 1) / 2 - 1]);
  int got[64];
  MPI_Iscatterv(all, counts, displs, MPI_INT, got, rank + 1, MPI_INT, 0, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  printf("rank %d: iscatterv %d..%d\n", rank, got[0], got[rank]);
  int red, ones[64];
  for (int j = 0; j < n; ++j) ones[j] = rank + j, counts[j] = 1;
  MPI_Ireduce_scatter(ones, &red, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  printf("rank %d: ireduce_scatter %d\n", rank, red);
  MPI_Ireduce_scatter_block(ones, &red, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  printf("rank %d: ireduce_scatter_block %d\n", rank, red);
  for (int j = 0; j < n; ++j) sc[j] = 1, sd[j] = j, rc[j] = 1, rd[j] = j;
  MPI_Ialltoallv(src, sc, sd, MPI_INT, dst, rc, rd, MPI_INT, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  printf("rank %d: ialltoallv %d\n", rank, dst[n - 1]);
  for (int j = 0; j < n; ++j) sd[j] = rd[j] = j * (int)sizeof(int), src[j] = rank * 1000 + j; /* bytes, for w */
  MPI_Ialltoallw(src, sc, sd, stypes, dst, rc, rd, rtypes, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  printf("rank %d: ialltoallw %d\n", rank, dst[0]);
  free(sc), free(sd), free(rc), free(rd), free(stypes), free(rtypes), free(src), free(dst), free(counts), free(displs),
      free(all);
  MPI_Finalize();
  return 0;
}
