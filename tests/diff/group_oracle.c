/* Differential test of groups, the real-MPI side: rank 0 runs seeded random
 * sequences of group operations on MPI_COMM_WORLD's group and prints each with its
 * arguments and the library's result, one per line; tests/diff/group_replay.cpp
 * replays the lines on mpisim's groups and compares. Only valid calls are made.
 * Usage: mpiexec -n P group_oracle SEQUENCES */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long state;
static int rnd(int n) { /* xorshift64*, deterministic for a seed */
  state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
  return (int)(((state * 2685821657736338717ULL) >> 33) % (unsigned long long)n);
}

#define MAXG 16
static MPI_Group groups[MAXG];
static int ngroups;
static MPI_Group world;
static int wsize;

static void print_members(MPI_Group g) {
  int n, i, *r, *w;
  MPI_Group_size(g, &n);
  r = malloc(sizeof(int) * (n + 1)); w = malloc(sizeof(int) * (n + 1));
  for (i = 0; i < n; ++i) r[i] = i;
  MPI_Group_translate_ranks(g, n, r, world, w);
  printf(" ->");
  for (i = 0; i < n; ++i) printf(" %d", w[i]);
  printf("\n");
  free(r); free(w);
}

static int add(MPI_Group g) {
  if (ngroups < MAXG) { groups[ngroups] = g; return ngroups++; }
  int k = 1 + rnd(MAXG - 1);
  MPI_Group_free(&groups[k]);
  groups[k] = g;
  return k;
}

int main(int argc, char** argv) {
  int rank, seq, step, i;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int sequences = argc > 1 ? atoi(argv[1]) : 300;
  if (rank == 0) {
    printf("world %d\n", wsize);
    for (seq = 0; seq < sequences; ++seq) {
      state = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)(seq + 1) * 0xBF58476D1CE4E5B9ULL;
      printf("sequence %d\n", seq);
      ngroups = 1;
      MPI_Comm_group(MPI_COMM_WORLD, &groups[0]);
      for (step = 0; step < 12; ++step) {
        int op = rnd(10), a = rnd(ngroups), b = rnd(ngroups), n, size, k;
        MPI_Group g = groups[a], out;
        MPI_Group_size(g, &size);
        if (op == 0 || op == 1) { /* incl / excl: a random subset in random order */
          int* r = malloc(sizeof(int) * (size + 1)); int* perm = malloc(sizeof(int) * (size + 1));
          for (i = 0; i < size; ++i) perm[i] = i;
          for (i = size - 1; i > 0; --i) { int j = rnd(i + 1), t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
          n = size ? rnd(size + 1) : 0;
          for (i = 0; i < n; ++i) r[i] = perm[i];
          if (op == 0) MPI_Group_incl(g, n, r, &out); else MPI_Group_excl(g, n, r, &out);
          k = add(out);
          printf("%s %d %d %d", op == 0 ? "incl" : "excl", k, a, n);
          for (i = 0; i < n; ++i) printf(" %d", r[i]);
          print_members(out);
          free(r); free(perm);
        } else if (op == 2 || op == 3) { /* range_incl / range_excl: disjoint valid triplets */
          int ranges[8][3], used[64] = {0}, t = 0, tries;
          if (size == 0) continue;
          for (tries = 0; tries < 6 && t < 4; ++tries) {
            int f = rnd(size), l = rnd(size), s = 1 + rnd(3), c, x, ok = 1;
            if (l < f) s = -s;
            c = s > 0 ? (l - f) / s + 1 : (f - l) / -s + 1;
            for (x = 0; x < c; ++x) if (used[f + x * s]) ok = 0;
            if (!ok) continue;
            for (x = 0; x < c; ++x) used[f + x * s] = 1;
            ranges[t][0] = f; ranges[t][1] = l; ranges[t][2] = s; ++t;
          }
          if (op == 2) MPI_Group_range_incl(g, t, ranges, &out); else MPI_Group_range_excl(g, t, ranges, &out);
          k = add(out);
          printf("%s %d %d %d", op == 2 ? "range_incl" : "range_excl", k, a, t);
          for (i = 0; i < t; ++i) printf(" %d %d %d", ranges[i][0], ranges[i][1], ranges[i][2]);
          print_members(out);
        } else if (op <= 6) { /* union / intersection / difference */
          const char* name = op == 4 ? "union" : op == 5 ? "intersection" : "difference";
          if (op == 4) MPI_Group_union(g, groups[b], &out);
          else if (op == 5) MPI_Group_intersection(g, groups[b], &out);
          else MPI_Group_difference(g, groups[b], &out);
          k = add(out);
          printf("%s %d %d %d", name, k, a, b);
          print_members(out);
        } else if (op == 9) { /* the caller's rank (world rank 0) and the size */
          int r;
          MPI_Group_rank(g, &r);
          printf("rank %d -> %d %d\n", a, r, size);
        } else if (op == 7) {
          int result;
          MPI_Group_compare(g, groups[b], &result);
          printf("compare %d %d -> %d\n", a, b, result);
        } else {
          int r[8], t[8], m = size ? 1 + rnd(size < 8 ? size : 8) : 0;
          for (i = 0; i < m; ++i) r[i] = rnd(4) == 0 ? MPI_PROC_NULL : rnd(size);
          MPI_Group_translate_ranks(g, m, r, groups[b], t);
          printf("translate %d %d %d", a, b, m);
          for (i = 0; i < m; ++i) printf(" %d", r[i]);
          printf(" ->");
          for (i = 0; i < m; ++i) printf(" %d", t[i]);
          printf("\n");
        }
      }
      for (i = 0; i < ngroups; ++i) MPI_Group_free(&groups[i]);
    }
  }
  MPI_Group_free(&world);
  MPI_Finalize();
  return 0;
}
