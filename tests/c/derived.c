/* Derived datatypes (struct with absolute addresses, indexed, subarray, resized),
 * pack and unpack, MPI_Reduce_local, groups and MPI_Comm_create. */
#include <mpi.h>
#include <stdio.h>

struct particle {
  double x;
  int id;
  char tag;
};

/* A user operation on the padded struct type: sums x and id, keeps the larger tag. */
static void combine(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)type;
  struct particle *a = in, *b = inout;
  for (int i = 0; i < *len; ++i) {
    b[i].x += a[i].x;
    b[i].id += a[i].id;
    if (a[i].tag > b[i].tag) b[i].tag = a[i].tag;
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* A struct type built from MPI_Get_address, sent from MPI_BOTTOM. */
  struct particle p = {rank == 0 ? 2.5 : 0, rank == 0 ? 77 : 0, rank == 0 ? 'q' : '-'};
  int blocks[3] = {1, 1, 1};
  MPI_Aint at[3];
  MPI_Datatype kinds[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR}, ptype, sized;
  MPI_Get_address(&p.x, &at[0]);
  MPI_Get_address(&p.id, &at[1]);
  MPI_Get_address(&p.tag, &at[2]);
  MPI_Type_create_struct(3, blocks, at, kinds, &ptype);
  MPI_Type_commit(&ptype);
  MPI_Bcast(MPI_BOTTOM, 1, ptype, 0, MPI_COMM_WORLD);
  printf("rank %d: particle %.1f %d %c\n", rank, p.x, p.id, p.tag);

  /* Relative displacements, resized to the C struct's extent: an array of structs. */
  struct particle ps[3];
  MPI_Aint rel[3] = {0, (MPI_Aint)((char *)&ps[0].id - (char *)&ps[0]), (MPI_Aint)((char *)&ps[0].tag - (char *)&ps[0])};
  MPI_Datatype one;
  MPI_Type_create_struct(3, blocks, rel, kinds, &one);
  MPI_Type_create_resized(one, 0, sizeof(struct particle), &sized);
  MPI_Type_commit(&sized);
  for (int i = 0; i < 3; ++i) ps[i].x = rank + i / 2.0, ps[i].id = rank * 10 + i, ps[i].tag = (char)('a' + i);
  MPI_Aint lb, extent, tlb, textent;
  MPI_Type_get_extent(sized, &lb, &extent);
  MPI_Type_get_true_extent(sized, &tlb, &textent);
  if (rank == 0) printf("sized: lb %ld extent %ld true lb %ld true extent %ld\n", (long)lb, (long)extent, (long)tlb, (long)textent);
  struct particle got[3];
  MPI_Sendrecv(ps, 3, sized, (rank + 1) % size, 3, got, 3, sized, (rank + size - 1) % size, 3, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  printf("rank %d: got %.1f/%d/%c %.1f/%d/%c\n", rank, got[0].x, got[0].id, got[0].tag, got[2].x, got[2].id, got[2].tag);

  /* A user operation on it: the elements as the C struct lays them out. */
  MPI_Op op;
  MPI_Op_create(combine, 1, &op);
  struct particle sum[3];
  MPI_Allreduce(ps, sum, 3, sized, op, MPI_COMM_WORLD);
  printf("rank %d: user op %.1f/%d/%c %.1f/%d/%c\n", rank, sum[0].x, sum[0].id, sum[0].tag, sum[2].x, sum[2].id, sum[2].tag);
  MPI_Op_free(&op);

  /* Indexed and subarray. */
  int grid[16], picked[5] = {-1, -1, -1, -1, -1};
  for (int i = 0; i < 16; ++i) grid[i] = rank * 100 + i;
  int lens[2] = {2, 3}, disps[2] = {1, 10};
  MPI_Datatype idx, sub;
  MPI_Type_indexed(2, lens, disps, MPI_INT, &idx);
  MPI_Type_commit(&idx);
  MPI_Sendrecv(grid, 1, idx, rank, 1, picked, 5, MPI_INT, rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  printf("rank %d: indexed %d %d %d %d %d\n", rank, picked[0], picked[1], picked[2], picked[3], picked[4]);
  int sizes[2] = {4, 4}, subsizes[2] = {2, 2}, starts[2] = {1, 2}, corner[4];
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &sub);
  MPI_Type_commit(&sub);
  MPI_Sendrecv(grid, 1, sub, rank, 2, corner, 4, MPI_INT, rank, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  printf("rank %d: subarray %d %d %d %d\n", rank, corner[0], corner[1], corner[2], corner[3]);

  /* Pack and unpack. */
  char packed[64];
  int pos = 0, psize, back[5] = {0, 0, 0, 0, 0};
  MPI_Pack_size(1, idx, MPI_COMM_WORLD, &psize);
  MPI_Pack(grid, 1, idx, packed, sizeof packed, &pos, MPI_COMM_WORLD);
  int end = pos;
  pos = 0;
  MPI_Unpack(packed, end, &pos, back, 5, MPI_INT, MPI_COMM_WORLD);
  printf("rank %d: pack size %d position %d unpacked %d %d %d\n", rank, psize, end, back[0], back[2], back[4]);

  /* Reduce_local. */
  int a[3] = {1, 2, 3}, b[3] = {rank, rank, rank};
  MPI_Reduce_local(a, b, 3, MPI_INT, MPI_PROD);
  printf("rank %d: reduce_local %d %d %d\n", rank, b[0], b[1], b[2]);

  /* Groups: the even ranks, their communicator. */
  MPI_Group world, evens, odds, both;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int n = (size + 1) / 2, ranks[64];
  for (int i = 0; i < n; ++i) ranks[i] = 2 * i;
  MPI_Group_incl(world, n, ranks, &evens);
  MPI_Group_excl(world, n, ranks, &odds);
  MPI_Group_union(odds, evens, &both);
  int gsize, grank, cmp, translated[64], in_evens[64];
  for (int i = 0; i < n; ++i) in_evens[i] = i;
  MPI_Group_size(evens, &gsize);
  MPI_Group_rank(evens, &grank);
  MPI_Group_compare(world, both, &cmp);
  MPI_Group_translate_ranks(evens, n, in_evens, world, translated);
  printf("rank %d: evens size %d my rank %d compare %d last %d\n", rank, gsize, grank, cmp, translated[n - 1]);
  MPI_Comm ecomm;
  MPI_Comm_create(MPI_COMM_WORLD, evens, &ecomm);
  if (ecomm != MPI_COMM_NULL) {
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, ecomm);
    printf("rank %d: sum over evens %d\n", rank, sum);
    MPI_Comm_free(&ecomm);
  } else {
    printf("rank %d: not in evens\n", rank);
  }
  /* The range forms, MPI_Comm_create_group (only the members call it), a darray. */
  int triplet[1][3] = {{0, size - 1, 2}};
  MPI_Group ranged, rest;
  MPI_Group_range_incl(world, 1, triplet, &ranged);
  MPI_Group_range_excl(world, 1, triplet, &rest);
  int rsize, restsize, same;
  MPI_Group_size(ranged, &rsize);
  MPI_Group_size(rest, &restsize);
  MPI_Group_compare(ranged, evens, &same);
  printf("rank %d: range_incl %d, range_excl %d, same as evens %d\n", rank, rsize, restsize, same);
  if (rank % 2 == 0) {
    MPI_Comm g;
    MPI_Comm_create_group(MPI_COMM_WORLD, ranged, 5, &g);
    int gr, gs;
    MPI_Comm_rank(g, &gr);
    MPI_Comm_size(g, &gs);
    printf("rank %d: create_group rank %d of %d\n", rank, gr, gs);
    MPI_Comm_free(&g);
  }
  /* MPI_Comm_create_group was the evens' call only: the world's collectives still match */
  int total = 0;
  MPI_Allreduce(&rank, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d: after create_group, world sum %d\n", rank, total);
  MPI_Group_free(&ranged);
  if (rest != MPI_GROUP_EMPTY) MPI_Group_free(&rest);
  int gs8[1] = {10}, dist[1] = {MPI_DISTRIBUTE_BLOCK}, darg[1] = {MPI_DISTRIBUTE_DFLT_DARG}, procs[1] = {3};
  MPI_Datatype da;
  MPI_Type_create_darray(3, rank % 3, 1, gs8, dist, darg, procs, MPI_ORDER_C, MPI_INT, &da);
  int dsize;
  MPI_Aint dlb, dext;
  MPI_Type_size(da, &dsize);
  MPI_Type_get_extent(da, &dlb, &dext);
  printf("rank %d: darray block of 10 over 3: size %d lb %ld extent %ld\n", rank, dsize, (long)dlb, (long)dext);
  MPI_Type_free(&da);
  MPI_Group_free(&world);
  MPI_Group_free(&evens);
  MPI_Group_free(&odds);
  MPI_Group_free(&both);
  MPI_Type_free(&ptype);
  MPI_Type_free(&one);
  MPI_Type_free(&sized);
  MPI_Type_free(&idx);
  MPI_Type_free(&sub);
  MPI_Finalize();
  return 0;
}
