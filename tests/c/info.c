/* Info objects (MPI-4.1 §10): set, get, delete, keys in order, dup, free,
 * MPI_Info_get_string's lengths, errors returned under MPI_ERRORS_RETURN, info
 * arguments of communicator calls and persistent collectives, a communicator's
 * hints, and MPI_INFO_ENV. MPICH 4.0.2 differs three times: with buflen 0,
 * MPI_Info_get_string leaves buflen 0 (MPI-4.1 §10: the value's length plus one);
 * MPI_INFO_NULL is MPI_ERR_ARG to it (mpisim: MPI_ERR_INFO, Table 9.1's class for
 * an invalid info argument); its MPI_INFO_ENV has no keys (mpisim's has "maxprocs"). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(MPI_Info info, const char *what) {
  int nkeys;
  MPI_Info_get_nkeys(info, &nkeys);
  printf("%s: %d keys", what, nkeys);
  for (int i = 0; i < nkeys; i++) {
    char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL + 1];
    int flag, len;
    MPI_Info_get_nthkey(info, i, key);
    MPI_Info_get_valuelen(info, key, &len, &flag);
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
    printf(" %s=%s(%d)", key, value, len);
  }
  printf("\n");
}

int main(int argc, char **argv) {
  MPI_Info info, copy, used;
  int rank, flag, buflen, err;
  char value[16], big[2000];

  /* Info calls may come before MPI_Init (MPI-4.1 §11.2.1). */
  MPI_Info_create(&info);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

  MPI_Info_set(info, "color", "red");
  MPI_Info_set(info, "size", "12");
  MPI_Info_set(info, "shape", "round");
  MPI_Info_set(info, "color", "blue"); /* replaces, keeps its place */
  if (rank == 0) show(info, "set");

  MPI_Info_get(info, "shape", 3, value, &flag); /* cut to 3 characters */
  if (rank == 0) printf("get shape 3: %d %s\n", flag, value);
  MPI_Info_get(info, "weight", 15, value, &flag);
  if (rank == 0) printf("get weight: %d\n", flag);

  buflen = 4;
  MPI_Info_get_string(info, "shape", &buflen, value, &flag);
  if (rank == 0) printf("get_string shape 4: %d %s buflen %d\n", flag, value, buflen);
  buflen = 0;
  MPI_Info_get_string(info, "color", &buflen, NULL, &flag);
  if (rank == 0) printf("get_string color 0: %d buflen %d\n", flag, buflen);

  MPI_Info_dup(info, &copy);
  MPI_Info_delete(info, "size");
  if (rank == 0) show(info, "after delete");
  if (rank == 0) show(copy, "dup");

  /* Errors, returned: a key that is not there, a key too long, a value too long,
   * an nth key out of range, a freed info object. */
  memset(big, 'k', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  err = MPI_Info_delete(info, "size");
  MPI_Error_class(err, &err);
  if (rank == 0) printf("delete missing: %d\n", err);
  err = MPI_Info_set(info, big + sizeof big - 1 - 256, "v");
  MPI_Error_class(err, &err);
  if (rank == 0) printf("key of 256: %d\n", err);
  err = MPI_Info_set(info, "k", big + sizeof big - 1 - 1025);
  MPI_Error_class(err, &err);
  if (rank == 0) printf("value of 1025: %d\n", err);
  err = MPI_Info_get_nthkey(info, 2, value);
  MPI_Error_class(err, &err);
  if (rank == 0) printf("nthkey 2 of 2: %d\n", err);

  /* Info arguments of other calls. */
  MPI_Comm dup, split;
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dup);
  MPI_Info_set(copy, "mpi_assert_no_any_tag", "true");
  MPI_Comm_set_info(dup, copy);
  MPI_Comm_get_info(dup, &used);
  MPI_Info_get(used, "mpi_assert_no_any_tag", 15, value, &flag);
  if (rank == 0) printf("get_info no_any_tag: %d %s\n", flag, value);
  MPI_Info_get(used, "mpi_assert_exact_length", 15, value, &flag);
  if (rank == 0) printf("get_info exact_length: %d %s\n", flag, value);
  MPI_Info_free(&used);
  MPI_Comm_split_type(dup, MPI_COMM_TYPE_SHARED, rank, info, &split);
  int one = 1, sum;
  MPI_Request req;
  MPI_Allreduce_init(&one, &sum, 1, MPI_INT, MPI_SUM, split, info, &req);
  MPI_Start(&req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Request_free(&req);
  int size;
  MPI_Comm_size(split, &size);
  if (rank == 0) printf("allreduce_init with info: %s\n", sum == size ? "the size" : "?");
  MPI_Comm_free(&split);
  MPI_Comm_free(&dup);

  MPI_Info_free(&copy);
  if (rank == 0) printf("freed: %s\n", copy == MPI_INFO_NULL ? "MPI_INFO_NULL" : "?");
  err = MPI_Info_get_nkeys(copy, &flag);
  MPI_Error_class(err, &err);
  if (rank == 0) printf("nkeys of MPI_INFO_NULL: %d\n", err);
  MPI_Info_free(&info);

  /* MPI_INFO_ENV has the number of processes. */
  char maxprocs[16];
  MPI_Info_get(MPI_INFO_ENV, "maxprocs", 15, maxprocs, &flag);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) printf("MPI_INFO_ENV maxprocs: %s\n", flag && atoi(maxprocs) == size ? "the size" : "?");
  MPI_Finalize();
  return 0;
}
