/* MPI_Comm_split_type with the guided and unguided split types (MPI-4.1 §7.4.2):
 * run on a machine of two processes per node, each hardware resource type gives
 * its communicators; one the machine lacks, or no info, gives MPI_COMM_NULL. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char *kinds[] = {"mpi_shared_memory", "core", "l3cache", NULL};
  for (int i = 0; kinds[i]; ++i) {
    MPI_Info info; MPI_Info_create(&info); MPI_Info_set(info, "mpi_hw_resource_type", kinds[i]);
    MPI_Comm c; MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c);
    int n = -1; if (c != MPI_COMM_NULL) { MPI_Comm_size(c, &n); MPI_Comm_free(&c); }
    printf("rank %d: %s size %d\n", rank, kinds[i], n);
    MPI_Info_free(&info);
  }
  MPI_Info info; MPI_Info_create(&info);
  MPI_Comm c; MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, info, &c);
  char v[64] = ""; int flag = 0; MPI_Info_get(info, "mpi_hw_resource_type", 63, v, &flag);
  int n = -1; if (c != MPI_COMM_NULL) { MPI_Comm_size(c, &n); MPI_Comm_free(&c); }
  printf("rank %d: unguided size %d resource %s\n", rank, n, flag ? v : "-");
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, MPI_INFO_NULL, &c);
  printf("rank %d: guided null info %s\n", rank, c == MPI_COMM_NULL ? "null" : "comm");
  MPI_Info_free(&info);
  MPI_Finalize();
}
