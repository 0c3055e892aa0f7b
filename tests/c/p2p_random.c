/* Random point-to-point programs, the same on every rank (a seed from the command
   line): in each round every rank sends to the rank `shift` places on and
   receives from the one `shift` places back, with a random send mode (standard,
   synchronous, buffered, ready; blocking, nonblocking or persistent), a random
   receive (MPI_Recv, MPI_Irecv completed by MPI_Wait, MPI_Test, MPI_Waitall,
   MPI_Waitany, MPI_Waitsome or MPI_Testall, MPI_Probe, MPI_Iprobe, MPI_Mprobe,
   MPI_Improbe), a random size (some past the eager limit) and MPI_ANY_SOURCE at
   times. Every rank prints what each round delivered. Compared with MPICH. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long state;
static int next(int n) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (int)((state >> 33) % (unsigned long long)n);
}

enum { MAX = 40000 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  state = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
  int *out = malloc(sizeof(int) * MAX), *in = malloc(sizeof(int) * MAX);
  int pool_size = 4 * (MAX * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
  char *pool = malloc((size_t)pool_size);
  MPI_Buffer_attach(pool, pool_size);
  for (int round = 0; round < 24; ++round) {
    const int shift = size > 1 ? 1 + next(size - 1) : 0;
    const int count = next(4) == 0 ? 20000 + next(MAX - 20000) : 1 + next(64);
    const int tag = round, any = next(3) == 0;
    const int recv_first = next(2), send_mode = next(9), recv_mode = next(6);
    const int to = (rank + shift) % size, from = (rank + size - shift) % size;
    for (int i = 0; i < count; ++i) out[i] = rank * 1000003 + round * 101 + i, in[i] = -1;
    MPI_Status st;
    MPI_Request rr = MPI_REQUEST_NULL, sr = MPI_REQUEST_NULL;
    int got = -1, flag = 0, index = -1, outcount = 0, indices[2];
    const char *how = "";
    if (recv_first) {
      /* The receive is posted first (so a ready send is correct after the barrier). */
      MPI_Irecv(in, MAX, MPI_INT, any ? MPI_ANY_SOURCE : from, tag, MPI_COMM_WORLD, &rr);
      MPI_Barrier(MPI_COMM_WORLD);
      switch (send_mode) {
        case 0: MPI_Send(out, count, MPI_INT, to, tag, MPI_COMM_WORLD); how = "send"; break;
        case 1: MPI_Ssend(out, count, MPI_INT, to, tag, MPI_COMM_WORLD); how = "ssend"; break;
        case 2: MPI_Bsend(out, count, MPI_INT, to, tag, MPI_COMM_WORLD); how = "bsend"; break;
        case 3: MPI_Rsend(out, count, MPI_INT, to, tag, MPI_COMM_WORLD); how = "rsend"; break;
        case 4: MPI_Isend(out, count, MPI_INT, to, tag, MPI_COMM_WORLD, &sr); how = "isend"; break;
        case 5: MPI_Issend(out, count, MPI_INT, to, tag, MPI_COMM_WORLD, &sr); how = "issend"; break;
        case 6: MPI_Ibsend(out, count, MPI_INT, to, tag, MPI_COMM_WORLD, &sr); how = "ibsend"; break;
        case 7: MPI_Irsend(out, count, MPI_INT, to, tag, MPI_COMM_WORLD, &sr); how = "irsend"; break;
        default:
          MPI_Send_init(out, count, MPI_INT, to, tag, MPI_COMM_WORLD, &sr);
          MPI_Start(&sr);
          how = "send_init";
      }
      MPI_Request both[2] = {rr, sr};
      MPI_Status sts[2];
      switch (recv_mode) {
        case 0: MPI_Wait(&rr, &st); break;
        case 1: do MPI_Test(&rr, &flag, &st); while (!flag); break;
        case 2: MPI_Waitall(2, both, sts); st = sts[0]; rr = both[0]; sr = both[1]; break;
        case 3:
          for (int done = 0; done < 2;) {
            MPI_Waitany(2, both, &index, &st);
            if (index == MPI_UNDEFINED) break;
            if (index == 0) got = 0;
            if (index == 0) sts[0] = st;
            ++done;
          }
          st = sts[0];
          rr = both[0];
          sr = both[1];
          break;
        case 4:
          for (int done = 0; done < 2;) {
            MPI_Waitsome(2, both, &outcount, indices, sts);
            if (outcount == MPI_UNDEFINED) break;
            for (int k = 0; k < outcount; ++k)
              if (indices[k] == 0) st = sts[k];
            done += outcount;
          }
          rr = both[0];
          sr = both[1];
          break;
        default:
          do MPI_Testall(2, both, &flag, sts);
          while (!flag);
          st = sts[0];
          rr = both[0];
          sr = both[1];
      }
      if (send_mode == 8) {
        MPI_Wait(&sr, MPI_STATUS_IGNORE);
        MPI_Request_free(&sr);
      } else {
        MPI_Wait(&sr, MPI_STATUS_IGNORE);
      }
    } else {
      /* The send goes first, nonblocking; then a blocking receive. */
      const int mode = send_mode % 3;
      if (mode == 0) MPI_Isend(out, count, MPI_INT, to, tag, MPI_COMM_WORLD, &sr), how = "isend";
      else if (mode == 1) MPI_Issend(out, count, MPI_INT, to, tag, MPI_COMM_WORLD, &sr), how = "issend";
      else MPI_Ibsend(out, count, MPI_INT, to, tag, MPI_COMM_WORLD, &sr), how = "ibsend";
      const int source = any ? MPI_ANY_SOURCE : from;
      MPI_Message m;
      switch (recv_mode) {
        case 0: MPI_Recv(in, MAX, MPI_INT, source, tag, MPI_COMM_WORLD, &st); break;
        case 1:
          MPI_Probe(source, tag, MPI_COMM_WORLD, &st);
          MPI_Get_count(&st, MPI_INT, &got);
          MPI_Recv(in, got, MPI_INT, st.MPI_SOURCE, tag, MPI_COMM_WORLD, &st);
          break;
        case 2:
          do MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, &st);
          while (!flag);
          MPI_Recv(in, MAX, MPI_INT, st.MPI_SOURCE, tag, MPI_COMM_WORLD, &st);
          break;
        case 3:
          MPI_Mprobe(source, tag, MPI_COMM_WORLD, &m, &st);
          MPI_Mrecv(in, MAX, MPI_INT, &m, &st);
          break;
        case 4:
          do MPI_Improbe(source, tag, MPI_COMM_WORLD, &flag, &m, &st);
          while (!flag);
          MPI_Imrecv(in, MAX, MPI_INT, &m, &rr);
          MPI_Wait(&rr, &st);
          break;
        default:
          MPI_Irecv(in, MAX, MPI_INT, source, tag, MPI_COMM_WORLD, &rr);
          MPI_Wait(&rr, &st);
      }
      MPI_Wait(&sr, MPI_STATUS_IGNORE);
    }
    MPI_Get_count(&st, MPI_INT, &got);
    long long sum = 0;
    int bad = 0;
    for (int i = 0; i < got; ++i) {
      sum += in[i];
      bad += in[i] != from * 1000003 + round * 101 + i;
    }
    printf("round %d rank %d: %s%s, got %d ints from %d tag %d, sum %lld, %d wrong, requests null %d %d\n", round, rank,
           how, recv_first ? "" : " first", got, st.MPI_SOURCE, st.MPI_TAG, sum, bad, rr == MPI_REQUEST_NULL,
           sr == MPI_REQUEST_NULL);
  }
  int detached_size;
  void *detached;
  MPI_Buffer_detach(&detached, &detached_size);
  printf("rank %d: detached %d bytes\n", rank, detached_size);
  free(pool);
  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}
