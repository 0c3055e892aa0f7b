/* MPI_Type_match_size (MPI-4.1 §19.1.9) for every class and size from 1 to 32
   bytes, and an unknown class: each returned error is MPI_ERR_ARG. MPICH gives
   the same types but for 16-byte reals and 32-byte complex numbers, where it has
   Fortran's quad types (MPI_REAL16, MPI_COMPLEX32) and mpisim C's long double. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN); /* the handler of calls about no communicator */
  const int classes[3] = {MPI_TYPECLASS_REAL, MPI_TYPECLASS_INTEGER, MPI_TYPECLASS_COMPLEX};
  const char *class_names[3] = {"real", "integer", "complex"};
  for (int c = 0; c < 3; ++c)
    for (int size = 1; size <= 32; size *= 2) {
      MPI_Datatype t;
      char name[MPI_MAX_OBJECT_NAME];
      int len, type_size = 0;
      const int rc = MPI_Type_match_size(classes[c], size, &t);
      if (rc != MPI_SUCCESS) {
        int error_class;
        MPI_Error_class(rc, &error_class);
        printf("%s %d: none (MPI_ERR_ARG %d)\n", class_names[c], size, error_class == MPI_ERR_ARG);
        continue;
      }
      MPI_Type_get_name(t, name, &len);
      MPI_Type_size(t, &type_size);
      printf("%s %d: %s, size %d\n", class_names[c], size, name, type_size);
    }
  MPI_Datatype t;
  int error_class;
  MPI_Error_class(MPI_Type_match_size(7, 4, &t), &error_class);
  printf("class 7: MPI_ERR_ARG %d\n", error_class == MPI_ERR_ARG);
  MPI_Finalize();
  return 0;
}
