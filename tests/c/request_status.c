/* MPI_Request_get_status_any, _all and _some (MPI-4.1 §3.7.5): as MPI_Testany,
   MPI_Testall and MPI_Testsome, but they free no request and change no handle.
   Any number of ranks. (MPICH 4.0 has none of them.) */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  /* Nothing active: true at once, MPI_UNDEFINED. */
  MPI_Request rs[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Status st, sts[3];
  int index = 0, flag = 0, outcount = 0, indices[3];
  MPI_Request_get_status_any(3, rs, &index, &flag, &st);
  MPI_Request_get_status_some(3, rs, &outcount, indices, sts);
  printf("rank %d: none active: any flag %d index undefined %d, some undefined %d\n", rank, flag,
         index == MPI_UNDEFINED, outcount == MPI_UNDEFINED);

  /* A receive nobody has sent to yet: not complete. */
  int got = -1, mine = rank;
  MPI_Irecv(&got, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &rs[1]);
  MPI_Request_get_status_all(3, rs, &flag, sts);
  int any_flag = 0;
  MPI_Request_get_status_any(3, rs, &index, &any_flag, &st);
  MPI_Request_get_status_some(3, rs, &outcount, indices, sts);
  printf("rank %d: before the send: all %d any %d some %d\n", rank, flag, any_flag, outcount);

  /* Once the message is in, every form sees it, and the request stays. */
  MPI_Send(&mine, 1, MPI_INT, right, 1, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  flag = 0;
  while (!flag) MPI_Request_get_status_all(3, rs, &flag, sts);
  const int all_source_left = sts[1].MPI_SOURCE == left;
  MPI_Request_get_status_any(3, rs, &index, &any_flag, &st);
  MPI_Request_get_status_some(3, rs, &outcount, indices, sts);
  printf("rank %d: after: all %d (source left %d), any %d at %d (tag %d), some %d at %d (tag %d), handle kept %d\n",
         rank, flag, all_source_left, any_flag, index, st.MPI_TAG, outcount, indices[0], sts[0].MPI_TAG,
         rs[1] != MPI_REQUEST_NULL);
  MPI_Wait(&rs[1], &st);
  printf("rank %d: received %d\n", rank, got);
  MPI_Finalize();
  return 0;
}
