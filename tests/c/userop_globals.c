/* A user operation runs as part of the process whose reduction it serves: it
 * reads that process's globals and gets that process's datatype handle, while
 * the two halves of the world reduce on their own communicators with different
 * globals (each half's element width) and differently numbered datatypes. */
#include <mpi.h>
#include <stdio.h>

static int width;              /* ints per element: 1 + this half's color */
static MPI_Datatype element;   /* this process's handle of its element type */
static int wrong_handles;

static void add_rows(void *in, void *inout, int *len, MPI_Datatype *type) {
  if (*type != element) ++wrong_handles;
  MPI_Aint lb, extent;
  MPI_Type_get_extent(*type, &lb, &extent);
  if (extent != (MPI_Aint)(width * sizeof(int))) ++wrong_handles;
  const int *a = in;
  int *b = inout;
  for (int i = 0; i < *len * width; ++i) b[i] = b[i] * 3 + a[i];  /* not commutative */
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int color = rank % 2;
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
  width = 1 + color;
  MPI_Datatype spare;
  if (color == 1) MPI_Type_contiguous(7, MPI_INT, &spare);  /* the other half's handles differ */
  MPI_Type_contiguous(width, MPI_INT, &element);
  MPI_Type_commit(&element);
  MPI_Op op;
  MPI_Op_create(add_rows, 0, &op);
  int hrank, hsize;
  MPI_Comm_rank(half, &hrank);
  MPI_Comm_size(half, &hsize);
  int mine[2 * 4], all[2 * 4], scan[2 * 4];
  for (int i = 0; i < 4 * width; ++i) mine[i] = hrank + i;
  MPI_Allreduce(mine, all, 4, element, op, half);
  MPI_Scan(mine, scan, 4, element, op, half);
  MPI_Request r;
  MPI_Iallreduce(MPI_IN_PLACE, mine, 4, element, op, half, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  printf("rank %d (half %d of %d): allreduce %d %d scan %d iallreduce %d wrong handles %d\n", rank, color, hsize,
         all[0], all[4 * width - 1], scan[4 * width - 1], mine[1], wrong_handles);
  if (color == 1) MPI_Type_free(&spare);
  MPI_Type_free(&element);
  MPI_Op_free(&op);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
