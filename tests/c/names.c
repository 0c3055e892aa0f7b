/* Names of communicators and datatypes, the predefined attributes, the library's
 * version string. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, len, flag, *value;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char name[MPI_MAX_OBJECT_NAME];
  MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
  printf("rank %d: world is %s (%d)\n", rank, name, len);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_get_name(dup, name, &len);
  printf("rank %d: a dup is named '%s'\n", rank, name);
  MPI_Comm_set_name(dup, "my duplicate");
  MPI_Comm_get_name(dup, name, &len);
  printf("rank %d: now '%s'\n", rank, name);
  MPI_Type_get_name(MPI_DOUBLE, name, &len);
  printf("rank %d: %s\n", rank, name);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_set_name(pair, "pair of ints");
  MPI_Type_get_name(pair, name, &len);
  printf("rank %d: %s\n", rank, name);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag);
  printf("rank %d: tag_ub given %d, at least 32767 %d\n", rank, flag, flag && *value >= 32767);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &value, &flag);
  printf("rank %d: wtime_is_global given %d\n", rank, flag);
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  MPI_Get_library_version(version, &len);
  printf("rank %d: a version string %d\n", rank, len > 0 && (int)strlen(version) == len);
  MPI_Type_free(&pair);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
