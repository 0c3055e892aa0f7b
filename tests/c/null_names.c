/* MPI-4.1 §7.8: MPI_Comm_get_name(MPI_COMM_NULL) gives "MPI_COMM_NULL" and
   MPI_Type_get_name(MPI_DATATYPE_NULL) "MPI_DATATYPE_NULL" (MPICH 4.0 refuses
   both). The MPI-1 markers MPI_LB and MPI_UB have their names too, as in MPICH.
   Any number of ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, len = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char name[MPI_MAX_OBJECT_NAME];
  int rc = MPI_Comm_get_name(MPI_COMM_NULL, name, &len);
  printf("rank %d: rc %d, \"%s\" (%d)\n", rank, rc, name, len);
  rc = MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len);
  printf("rank %d: rc %d, \"%s\" (%d)\n", rank, rc, name, len);
  MPI_Type_get_name(MPI_LB, name, &len);
  printf("rank %d: \"%s\" (%d)\n", rank, name, len);
  MPI_Type_get_name(MPI_UB, name, &len);
  printf("rank %d: \"%s\" (%d)\n", rank, name, len);
  MPI_Finalize();
  return 0;
}
