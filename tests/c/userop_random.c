/* Non-commutative user operations over random reductions (MPI-4.1 §6.9.5): 2x2
 * matrices of long long multiplied modulo a prime, each rank's matrices drawn
 * from a seed, through MPI_Reduce (a random root), MPI_Allreduce, MPI_Scan,
 * MPI_Exscan, MPI_Reduce_scatter_block and MPI_Reduce_scatter (random counts).
 * Every result must be the product in rank order, whatever tree the library
 * uses: the output is compared with MPICH's. Usage: userop_random SEED */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define P 1000003LL

static unsigned long long state;
static unsigned next(void) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(state >> 33);
}

static void matmul(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  long long* a = in;
  long long* b = inout;
  for (int k = 0; k < *len; ++k, a += 4, b += 4) {
    long long c0 = (a[0] * b[0] + a[1] * b[2]) % P, c1 = (a[0] * b[1] + a[1] * b[3]) % P;
    long long c2 = (a[2] * b[0] + a[3] * b[2]) % P, c3 = (a[2] * b[1] + a[3] * b[3]) % P;
    b[0] = c0, b[1] = c1, b[2] = c2, b[3] = c3;
  }
}

static void print(int rank, const char* what, const long long* m, int count) {
  printf("rank %d %s:", rank, what);
  for (int i = 0; i < 4 * count; ++i) printf(" %lld", m[i]);
  printf("\n");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const unsigned seed = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
  MPI_Datatype matrix;
  MPI_Type_contiguous(4, MPI_LONG_LONG, &matrix);
  MPI_Type_commit(&matrix);
  MPI_Op product;
  MPI_Op_create(matmul, 0, &product);

  /* The same draws at every rank: the shared choices first, then each rank's data. */
  state = seed;
  const int count = 1 + (int)(next() % 3), root = (int)(next() % (unsigned)size);
  int* counts = malloc(sizeof(int) * (size_t)size);
  int total = 0;
  for (int r = 0; r < size; ++r) total += counts[r] = (int)(next() % 3);
  const int block = 1 + (int)(next() % 2);
  const int items = count > total ? (count > block * size ? count : block * size) : (total > block * size ? total : block * size);
  long long* mine = malloc(sizeof(long long) * 4 * (size_t)items);
  for (int r = 0; r <= rank; ++r)
    for (int i = 0; i < 4 * items; ++i) {
      long long v = (long long)(next() % 7);
      if (r == rank) mine[i] = v;
    }
  long long* out = calloc(4 * (size_t)items, sizeof(long long));

  MPI_Reduce(mine, out, count, matrix, product, root, MPI_COMM_WORLD);
  if (rank == root) print(rank, "reduce", out, count);
  MPI_Allreduce(mine, out, count, matrix, product, MPI_COMM_WORLD);
  print(rank, "allreduce", out, count);
  MPI_Scan(mine, out, count, matrix, product, MPI_COMM_WORLD);
  print(rank, "scan", out, count);
  MPI_Exscan(mine, out, count, matrix, product, MPI_COMM_WORLD);
  if (rank > 0) print(rank, "exscan", out, count);
  MPI_Reduce_scatter_block(mine, out, block, matrix, product, MPI_COMM_WORLD);
  print(rank, "reduce_scatter_block", out, block);
  if (total > 0) {
    MPI_Reduce_scatter(mine, out, counts, matrix, product, MPI_COMM_WORLD);
    print(rank, "reduce_scatter", out, counts[rank]);
  }
  MPI_Op_free(&product);
  MPI_Type_free(&matrix);
  free(counts);
  free(mine);
  free(out);
  MPI_Finalize();
  return 0;
}
