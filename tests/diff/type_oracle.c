/* Differential test of derived datatypes, the real-MPI side: builds seeded random
 * nested datatypes and prints, for each, how it was built (one line per
 * constructor) and what the library says: size, lb, extent, true lb, true extent
 * and the packed bytes of one element taken from a patterned buffer (hashed).
 * tests/diff/type_replay.cpp rebuilds every type with mpisim and compares.
 * Counts and block lengths are at least 1: MPICH 4.0 crashes packing some types
 * with empty blocks, and the extent of such types is a known disagreement between
 * MPICH and Open MPI (mpisim follows the standard: an empty type map).
 * Usage: mpiexec -n 1 type_oracle COUNT */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long state;
static int rnd(int n) {
  state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
  return (int)(((state * 2685821657736338717ULL) >> 33) % (unsigned long long)n);
}

#define MAXT 64
static MPI_Datatype types[MAXT];
static int is_basic[MAXT];
static int ntypes;

static const char* basic_names[] = {"MPI_CHAR", "MPI_SHORT", "MPI_INT", "MPI_LONG", "MPI_FLOAT", "MPI_DOUBLE",
                                    "MPI_BYTE", "MPI_LONG_DOUBLE"};
static MPI_Datatype basic_types[8];

static int add(MPI_Datatype t) { types[ntypes] = t; is_basic[ntypes] = 0; return ntypes++; }

/* A type built from the ones made so far (or a basic one), printed as "T k ...". */
static int random_type(int depth) {
  int k, i, n, child;
  MPI_Datatype t;
  if (depth == 0 || rnd(4) == 0) {
    int b = rnd(8);
    k = add(basic_types[b]);
    is_basic[k] = 1;
    printf("T %d basic %s\n", k, basic_names[b]);
    return k;
  }
  int op = rnd(12);
  if (op == 7) { /* struct of 1..3 members */
    int bl[3], nm = 1 + rnd(3), ch[3];
    MPI_Aint disp[3];
    MPI_Datatype ts[3];
    for (i = 0; i < nm; ++i) { ch[i] = random_type(depth - 1); bl[i] = 1 + rnd(2); disp[i] = rnd(48) - 8; ts[i] = types[ch[i]]; }
    MPI_Type_create_struct(nm, bl, disp, ts, &t);
    k = add(t);
    printf("T %d struct %d", k, nm);
    for (i = 0; i < nm; ++i) printf(" %d", bl[i]);
    for (i = 0; i < nm; ++i) printf(" %ld", (long)disp[i]);
    for (i = 0; i < nm; ++i) printf(" %d", ch[i]);
    printf("\n");
    return k;
  }
  child = random_type(depth - 1);
  MPI_Datatype c = types[child];
  switch (op) {
    case 0: n = 1 + rnd(3); MPI_Type_contiguous(n, c, &t); k = add(t); printf("T %d contiguous %d %d\n", k, n, child); break;
    case 1: { int cnt = 1 + rnd(3), bl = 1 + rnd(2), st = rnd(7) - 2;
      MPI_Type_vector(cnt, bl, st, c, &t); k = add(t); printf("T %d vector %d %d %d %d\n", k, cnt, bl, st, child); break; }
    case 2: { int cnt = 1 + rnd(3), bl = 1 + rnd(2); MPI_Aint st = rnd(40) - 8;
      MPI_Type_create_hvector(cnt, bl, st, c, &t); k = add(t); printf("T %d hvector %d %d %ld %d\n", k, cnt, bl, (long)st, child); break; }
    case 3: case 4: { int m = 1 + rnd(3), bl[3], d[3]; MPI_Aint hd[3];
      for (i = 0; i < m; ++i) { bl[i] = 1 + rnd(2); d[i] = rnd(8) - 2; hd[i] = rnd(40) - 8; }
      if (op == 3) MPI_Type_indexed(m, bl, d, c, &t); else MPI_Type_create_hindexed(m, bl, hd, c, &t);
      k = add(t);
      printf("T %d %s %d", k, op == 3 ? "indexed" : "hindexed", m);
      for (i = 0; i < m; ++i) printf(" %d", bl[i]);
      for (i = 0; i < m; ++i) printf(" %ld", op == 3 ? (long)d[i] : (long)hd[i]);
      printf(" %d\n", child);
      break; }
    case 5: case 6: { int m = 1 + rnd(3), bl = 1 + rnd(2), d[3]; MPI_Aint hd[3];
      for (i = 0; i < m; ++i) { d[i] = rnd(8) - 2; hd[i] = rnd(40) - 8; }
      if (op == 5) MPI_Type_create_indexed_block(m, bl, d, c, &t); else MPI_Type_create_hindexed_block(m, bl, hd, c, &t);
      k = add(t);
      printf("T %d %s %d %d", k, op == 5 ? "indexed_block" : "hindexed_block", m, bl);
      for (i = 0; i < m; ++i) printf(" %ld", op == 5 ? (long)d[i] : (long)hd[i]);
      printf(" %d\n", child);
      break; }
    case 8: { MPI_Aint lb = rnd(16) - 8, ext = 1 + rnd(40);
      MPI_Type_create_resized(c, lb, ext, &t); k = add(t); printf("T %d resized %ld %ld %d\n", k, (long)lb, (long)ext, child); break; }
    case 9: { int nd = 1 + rnd(2), sz[2], sub[2], st[2], order = rnd(2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
      for (i = 0; i < nd; ++i) { sz[i] = 1 + rnd(4); sub[i] = 1 + rnd(sz[i]); st[i] = rnd(sz[i] - sub[i] + 1); }
      MPI_Type_create_subarray(nd, sz, sub, st, order, c, &t); k = add(t);
      printf("T %d subarray %d", k, nd);
      for (i = 0; i < nd; ++i) printf(" %d", sz[i]);
      for (i = 0; i < nd; ++i) printf(" %d", sub[i]);
      for (i = 0; i < nd; ++i) printf(" %d", st[i]);
      printf(" %s %d\n", order == MPI_ORDER_C ? "C" : "F", child);
      break; }
    case 11: { /* darray on a grid of up to 4 processes */
      int nd = 1 + rnd(2), gs[2], dist[2], darg[2], ps[2], size = 1, r, order = rnd(2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
      static const int kinds[3] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE};
      for (i = 0; i < nd; ++i) {
        gs[i] = 1 + rnd(7);
        dist[i] = kinds[rnd(3)];
        ps[i] = dist[i] == MPI_DISTRIBUTE_NONE ? 1 : 1 + rnd(2);
        darg[i] = MPI_DISTRIBUTE_DFLT_DARG;
        if (dist[i] == MPI_DISTRIBUTE_CYCLIC && rnd(2)) darg[i] = 1 + rnd(3);
        if (dist[i] == MPI_DISTRIBUTE_BLOCK && rnd(2)) darg[i] = (gs[i] + ps[i] - 1) / ps[i] + rnd(2);
        size *= ps[i];
      }
      r = rnd(size);
      MPI_Type_create_darray(size, r, nd, gs, dist, darg, ps, order, c, &t);
      k = add(t);
      printf("T %d darray %d %d %d", k, size, r, nd);
      for (i = 0; i < nd; ++i) printf(" %d", gs[i]);
      for (i = 0; i < nd; ++i) printf(" %s", dist[i] == MPI_DISTRIBUTE_BLOCK ? "B" : dist[i] == MPI_DISTRIBUTE_CYCLIC ? "C" : "N");
      for (i = 0; i < nd; ++i) {
        if (darg[i] == MPI_DISTRIBUTE_DFLT_DARG) printf(" D"); else printf(" %d", darg[i]);
      }
      for (i = 0; i < nd; ++i) printf(" %d", ps[i]);
      printf(" %s %d\n", order == MPI_ORDER_C ? "C" : "F", child);
      break; }
    default: MPI_Type_dup(c, &t); k = add(t); printf("T %d dup %d\n", k, child); break;
  }
  return k;
}

int main(int argc, char** argv) {
  int n, i, count = argc > 1 ? atoi(argv[1]) : 500;
  MPI_Init(&argc, &argv);
  basic_types[0] = MPI_CHAR; basic_types[1] = MPI_SHORT; basic_types[2] = MPI_INT; basic_types[3] = MPI_LONG;
  basic_types[4] = MPI_FLOAT; basic_types[5] = MPI_DOUBLE; basic_types[6] = MPI_BYTE; basic_types[7] = MPI_LONG_DOUBLE;
  for (n = 0; n < count; ++n) {
    state = 0xD1B54A32D192ED03ULL ^ (unsigned long long)(n + 1) * 0x9E3779B97F4A7C15ULL;
    ntypes = 0;
    printf("case %d\n", n);
    int top = random_type(3);
    MPI_Datatype t = types[top];
    if (!is_basic[top]) MPI_Type_commit(&t);
    int size; MPI_Aint lb, ext, tlb, text;
    MPI_Type_size(t, &size);
    MPI_Type_get_extent(t, &lb, &ext);
    MPI_Type_get_true_extent(t, &tlb, &text);
    /* Pack one element from a patterned buffer whose base leaves room for negative offsets. */
    unsigned long long hash = 1469598103934665603ULL;
    if (size > 0 && text < (1 << 20)) {
      int packsize, pos = 0;
      long span = text + 64;
      unsigned char* buf = malloc(span);
      for (i = 0; i < span; ++i) buf[i] = (unsigned char)(i % 251);
      MPI_Pack_size(1, t, MPI_COMM_WORLD, &packsize);
      unsigned char* out = malloc(packsize + 1);
      MPI_Pack(buf + 32 - tlb, 1, t, out, packsize, &pos, MPI_COMM_WORLD);
      for (i = 0; i < pos; ++i) hash = (hash ^ out[i]) * 1099511628211ULL;
      free(buf); free(out);
    }
    printf("R %d %ld %ld %ld %ld %llu\n", size, (long)lb, (long)ext, (long)tlb, (long)text, hash);
    if (!is_basic[top]) MPI_Type_free(&t);
    for (i = 0; i < ntypes; ++i)
      if (!is_basic[i] && i != top) MPI_Type_free(&types[i]);
  }
  MPI_Finalize();
  return 0;
}
