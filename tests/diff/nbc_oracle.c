/* Differential test of nonblocking and persistent collectives, the real-MPI side.
 * Seeded random programs: each starts several collectives on MPI_COMM_WORLD
 * (nonblocking, or persistent ones started twice, the send buffers changed in
 * between), keeps them in flight together and completes them in a random order.
 * Every rank prints the program (rank 0 only) and its buffers afterwards, one
 * line each; tests/diff/nbc_replay.cpp writes the same program as a scenario,
 * runs it in mpisim and compares. Only the values the standard defines are
 * printed (the root's result of a rooted call, not rank 0's of MPI_Iexscan).
 * Two defects of MPICH 4.0.2 keep gathers and scatters from being persistent
 * here: the second start of a persistent MPI_Scatter fails ("Invalid
 * communicator" in its schedule's progress), and the second start of a
 * persistent MPI_Gather delivers the data of the first start, not the send
 * buffers' contents at the start, as MPI-4.1 §6.13 requires (mpisim follows the
 * standard). Every line is printed by rank 0, which collects the others' (lines
 * printed by several processes may interleave).
 *
 * Lines: "program P OPS", then OPS lines "op K KIND COUNT ROOT OP PERSISTENT",
 * "order I0 I1 ...", and "result P RANK K VALUES..." from every rank.
 * Usage: mpiexec -n N nbc_oracle PROGRAMS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long state;
static int rnd(int n) { /* xorshift64*, deterministic for a seed */
  state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
  return (int)(((state * 2685821657736338717ULL) >> 33) % (unsigned long long)n);
}

enum { BCAST, ALLREDUCE, REDUCE, GATHER, SCATTER, ALLGATHER, ALLTOALL, SCAN, EXSCAN, RSB, BARRIER, KINDS };
static const char* kind_names[KINDS] = {"bcast", "allreduce", "reduce", "gather", "scatter", "allgather",
                                        "alltoall", "scan", "exscan", "reduce_scatter_block", "barrier"};
static const char* op_names[3] = {"MPI_SUM", "MPI_MAX", "MPI_MIN"};
#define MAXOPS 6

int main(int argc, char** argv) {
  int rank, size, p, k, i;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int programs = argc > 1 ? atoi(argv[1]) : 100;
  const MPI_Op ops[3] = {MPI_SUM, MPI_MAX, MPI_MIN};
  for (p = 0; p < programs; ++p) {
    state = 0x9E3779B97F4A7C15ULL * (unsigned long long)(p + 1);
    int n = 1 + rnd(MAXOPS);
    int kind[MAXOPS], count[MAXOPS], root[MAXOPS], op[MAXOPS], persistent[MAXOPS], order[MAXOPS];
    int *sbuf[MAXOPS], *rbuf[MAXOPS];
    MPI_Request req[MAXOPS];
    if (rank == 0) printf("program %d %d\n", p, n);
    for (k = 0; k < n; ++k) {
      kind[k] = rnd(KINDS);
      count[k] = 1 + rnd(4);
      root[k] = rnd(size);
      op[k] = rnd(3);
      persistent[k] = rnd(3) == 0 && kind[k] != SCATTER && kind[k] != GATHER;
      if (rank == 0)
        printf("op %d %s %d %d %s %d\n", k, kind_names[kind[k]], count[k], root[k], op_names[op[k]], persistent[k]);
    }
    for (k = 0; k < n; ++k) order[k] = k;
    for (k = n - 1; k > 0; --k) { int j = rnd(k + 1), t = order[k]; order[k] = order[j]; order[j] = t; }
    if (rank == 0) {
      printf("order");
      for (k = 0; k < n; ++k) printf(" %d", order[k]);
      printf("\n");
    }
    for (k = 0; k < n; ++k) {
      /* Send side: count * size ints (enough for every kind); receive side the same. */
      int len = count[k] * size;
      sbuf[k] = malloc(sizeof(int) * len);
      rbuf[k] = malloc(sizeof(int) * len);
      for (i = 0; i < len; ++i) {
        sbuf[k][i] = (rank + 1) * 100 + i + 7 * k;
        rbuf[k][i] = -1;
      }
    }
    int round, rounds = 1;
    for (k = 0; k < n; ++k) if (persistent[k]) rounds = 2;
    for (round = 0; round < rounds; ++round) {
      for (k = 0; k < n; ++k) {
        if (round == 1 && !persistent[k]) { req[k] = MPI_REQUEST_NULL; continue; }
        int c = count[k];
        int* s = sbuf[k];
        int* r = rbuf[k];
        if (!persistent[k]) {
          switch (kind[k]) {
            case BCAST: MPI_Ibcast(s, c, MPI_INT, root[k], MPI_COMM_WORLD, &req[k]); break;
            case ALLREDUCE: MPI_Iallreduce(s, r, c, MPI_INT, ops[op[k]], MPI_COMM_WORLD, &req[k]); break;
            case REDUCE: MPI_Ireduce(s, r, c, MPI_INT, ops[op[k]], root[k], MPI_COMM_WORLD, &req[k]); break;
            case GATHER: MPI_Igather(s, c, MPI_INT, r, c, MPI_INT, root[k], MPI_COMM_WORLD, &req[k]); break;
            case SCATTER: MPI_Iscatter(s, c, MPI_INT, r, c, MPI_INT, root[k], MPI_COMM_WORLD, &req[k]); break;
            case ALLGATHER: MPI_Iallgather(s, c, MPI_INT, r, c, MPI_INT, MPI_COMM_WORLD, &req[k]); break;
            case ALLTOALL: MPI_Ialltoall(s, c, MPI_INT, r, c, MPI_INT, MPI_COMM_WORLD, &req[k]); break;
            case SCAN: MPI_Iscan(s, r, c, MPI_INT, ops[op[k]], MPI_COMM_WORLD, &req[k]); break;
            case EXSCAN: MPI_Iexscan(s, r, c, MPI_INT, ops[op[k]], MPI_COMM_WORLD, &req[k]); break;
            case RSB: MPI_Ireduce_scatter_block(s, r, c, MPI_INT, ops[op[k]], MPI_COMM_WORLD, &req[k]); break;
            default: MPI_Ibarrier(MPI_COMM_WORLD, &req[k]); break;
          }
        } else {
          if (round == 0) {
            switch (kind[k]) {
              case BCAST: MPI_Bcast_init(s, c, MPI_INT, root[k], MPI_COMM_WORLD, MPI_INFO_NULL, &req[k]); break;
              case ALLREDUCE: MPI_Allreduce_init(s, r, c, MPI_INT, ops[op[k]], MPI_COMM_WORLD, MPI_INFO_NULL, &req[k]); break;
              case REDUCE: MPI_Reduce_init(s, r, c, MPI_INT, ops[op[k]], root[k], MPI_COMM_WORLD, MPI_INFO_NULL, &req[k]); break;
              case GATHER: MPI_Gather_init(s, c, MPI_INT, r, c, MPI_INT, root[k], MPI_COMM_WORLD, MPI_INFO_NULL, &req[k]); break;
              case SCATTER: MPI_Scatter_init(s, c, MPI_INT, r, c, MPI_INT, root[k], MPI_COMM_WORLD, MPI_INFO_NULL, &req[k]); break;
              case ALLGATHER: MPI_Allgather_init(s, c, MPI_INT, r, c, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req[k]); break;
              case ALLTOALL: MPI_Alltoall_init(s, c, MPI_INT, r, c, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req[k]); break;
              case SCAN: MPI_Scan_init(s, r, c, MPI_INT, ops[op[k]], MPI_COMM_WORLD, MPI_INFO_NULL, &req[k]); break;
              case EXSCAN: MPI_Exscan_init(s, r, c, MPI_INT, ops[op[k]], MPI_COMM_WORLD, MPI_INFO_NULL, &req[k]); break;
              case RSB: MPI_Reduce_scatter_block_init(s, r, c, MPI_INT, ops[op[k]], MPI_COMM_WORLD, MPI_INFO_NULL, &req[k]); break;
              default: MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req[k]); break;
            }
          } else {
            /* The second start sees the send buffer changed: every element + 1000. */
            for (i = 0; i < count[k] * size; ++i) sbuf[k][i] += 1000;
          }
          MPI_Start(&req[k]);
        }
      }
      for (k = 0; k < n; ++k) MPI_Wait(&req[order[k]], MPI_STATUS_IGNORE);
    }
    for (k = 0; k < n; ++k)
      if (persistent[k]) MPI_Request_free(&req[k]);
    /* This rank's result lines, collected at rank 0 and printed there in rank order. */
    char* text = malloc(65536);
    int used = 0;
    text[0] = 0;
    for (k = 0; k < n; ++k) {
      int c = count[k], shown = 0, *v = rbuf[k];
      switch (kind[k]) {
        case BCAST: v = sbuf[k]; shown = c; break;
        case ALLREDUCE: case SCAN: shown = c; break;
        case EXSCAN: shown = rank > 0 ? c : 0; break;
        case REDUCE: shown = rank == root[k] ? c : 0; break;
        case GATHER: shown = rank == root[k] ? c * size : 0; break;
        case SCATTER: case RSB: shown = c; break;
        case ALLGATHER: case ALLTOALL: shown = c * size; break;
        default: shown = 0; break;
      }
      if (shown == 0) continue;
      used += snprintf(text + used, 65536 - used, "result %d %d %d", p, rank, k);
      for (i = 0; i < shown; ++i) used += snprintf(text + used, 65536 - used, " %d", v[i]);
      used += snprintf(text + used, 65536 - used, "\n");
    }
    int* lengths = malloc(sizeof(int) * size);
    int* displs = malloc(sizeof(int) * size);
    MPI_Gather(&used, 1, MPI_INT, lengths, 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    if (rank == 0)
      for (i = 0; i < size; ++i) { displs[i] = total; total += lengths[i]; }
    char* all = malloc(total + 1);
    MPI_Gatherv(text, used, MPI_CHAR, all, lengths, displs, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      all[total] = 0;
      fputs(all, stdout);
    }
    free(all); free(lengths); free(displs); free(text);
    for (k = 0; k < n; ++k) { free(sbuf[k]); free(rbuf[k]); }
  }
  MPI_Finalize();
  return 0;
}
