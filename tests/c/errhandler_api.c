/* The error-handling API (MPI-4.1 §9.3, §9.5): a handler the program makes, called
 * with the communicator and the code when a call on it fails (and by
 * MPI_Comm_call_errhandler), MPI calls made from inside it, references through
 * MPI_Comm_get_errhandler and MPI_Errhandler_free, added error classes, codes and
 * strings, MPI_LASTUSEDCODE, and the MPI-1 names. Rank 0 prints. MPICH 4.0.2
 * leaves MPI_LASTUSEDCODE at the first class added (mpisim: the largest code in
 * use) and has no MPI_Remove_error_* (MPI-4.1). */
#include <mpi.h>
#include <stdio.h>

static int rank, calls;

static void handler(MPI_Comm *comm, int *code, ...) {
  int cls, len;
  char text[MPI_MAX_ERROR_STRING];
  MPI_Error_class(*code, &cls); /* MPI calls from inside the handler */
  MPI_Error_string(*code, text, &len);
  calls++;
  /* the text of a predefined class is the library's own; an added code's is the program's */
  if (rank == 0)
    printf("handler: class %d on %s: %s\n", cls, *comm == MPI_COMM_WORLD ? "world" : "other",
           cls > MPI_ERR_LASTCODE ? text : "(the library's text)");
}

int main(int argc, char **argv) {
  int cls, code, code2, len, flag, err, *last;
  char s[MPI_MAX_ERROR_STRING];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  MPI_Add_error_class(&cls);
  MPI_Add_error_code(cls, &code);
  MPI_Add_error_code(cls, &code2);
  if (rank == 0) printf("class %d code %d code2 %d\n", cls, code, code2);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
  if (rank == 0) printf("MPI_LASTUSEDCODE is code2: %d\n", flag && *last == code2);
  MPI_Add_error_string(code, "the widget broke");
  MPI_Error_string(code, s, &len);
  if (rank == 0) printf("string: [%s] %d\n", s, len);
  MPI_Error_string(cls, s, &len);
  if (rank == 0) printf("class string: [%s] %d\n", s, len);
  MPI_Error_class(code2, &err);
  if (rank == 0) printf("class of code2: %d\n", err == cls);

  MPI_Errhandler eh, got;
  MPI_Comm_create_errhandler(handler, &eh);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got);
  if (rank == 0) printf("get gives it: %d\n", got == eh);
  MPI_Errhandler_free(&got);
  err = MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
  if (rank == 0) printf("call_errhandler returned %d\n", err);
  err = MPI_Send(NULL, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  MPI_Error_class(err, &err);
  if (rank == 0) printf("send returned class %d after %d calls\n", err, calls);
  MPI_Errhandler_free(&eh);
  if (rank == 0) printf("freed: %d\n", eh == MPI_ERRHANDLER_NULL);
  MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER); /* the communicator keeps it */
  if (rank == 0) printf("calls %d\n", calls);

  /* the MPI-1 names */
  MPI_Errhandler old;
  MPI_Errhandler_create(handler, &old);
  MPI_Errhandler_set(MPI_COMM_SELF, old);
  MPI_Errhandler_get(MPI_COMM_SELF, &got);
  if (rank == 0) printf("MPI-1 get: %d\n", got == old);
  MPI_Errhandler_free(&got);
  MPI_Errhandler_free(&old);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
  err = MPI_Remove_error_class(cls); /* it still has codes */
  MPI_Error_class(err, &err);
  if (rank == 0) printf("remove a class with codes: %d\n", err == MPI_ERR_ARG);
  MPI_Remove_error_string(code);
  MPI_Error_string(code, s, &len);
  if (rank == 0) printf("string removed: [%s]\n", s);
  MPI_Remove_error_code(code);
  MPI_Remove_error_code(code2);
  MPI_Remove_error_class(cls);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
  if (rank == 0) printf("MPI_LASTUSEDCODE is MPI_ERR_LASTCODE again: %d\n", *last == MPI_ERR_LASTCODE);
  /* Classes and codes added and removed 300 times: each new one differs from
     every other, its code's class is itself, and each removal is accepted. */
  int rounds_ok = 0;
  for (int k = 0; k < 300; ++k) {
    int c, e, of;
    MPI_Add_error_class(&c);
    MPI_Add_error_code(c, &e);
    MPI_Error_class(e, &of);
    rounds_ok += e != c && of == c && MPI_Remove_error_code(e) == MPI_SUCCESS &&
                 MPI_Remove_error_class(c) == MPI_SUCCESS;
  }
  if (rank == 0) printf("add and remove 300 times: %d rounds right\n", rounds_ok);
#endif
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Finalize();
  return 0;
}
