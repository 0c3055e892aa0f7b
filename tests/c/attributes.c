/* Attribute caching (MPI-4.1 §7.7): keys with copy and delete callbacks on
 * communicators and datatypes, when each callback runs, freed keys, the MPI-1
 * names, MPI calls made from inside callbacks (and from inside a user-defined
 * operation), errors returned under MPI_ERRORS_RETURN, and MPI_Finalize deleting
 * MPI_COMM_SELF's attributes, the last set first, then MPI_COMM_WORLD's (as
 * MPICH). Rank 0 prints. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank;
static int copies, deletes;

static int copy_plus_one(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag) {
  int size, inner_flag;
  void *v;
  (void)keyval;
  /* An MPI call from inside a callback: the communicator being copied. */
  MPI_Comm_size(oldcomm, &size);
  MPI_Comm_get_attr(oldcomm, *(int *)extra, &v, &inner_flag);
  copies++;
  *(void **)out = (void *)((long)in + 1);
  *flag = inner_flag && size > 0;
  return MPI_SUCCESS;
}

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)comm, (void)keyval, (void)extra;
  deletes++;
  if (rank == 0) printf("  delete %ld\n", (long)value);
  return MPI_SUCCESS;
}

static int failing_copy(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag) {
  (void)oldcomm, (void)keyval, (void)extra, (void)in, (void)out, (void)flag;
  return MPI_ERR_OTHER;
}

static int at_finalize(MPI_Comm comm, int keyval, void *value, void *extra) {
  int finalized;
  (void)comm, (void)keyval, (void)extra;
  MPI_Finalized(&finalized);
  if (rank == 0) printf("finalize deletes %ld (finalized %d)\n", (long)value, finalized);
  return MPI_SUCCESS;
}

static int type_deletes;
static int type_delete(MPI_Datatype type, int keyval, void *value, void *extra) {
  (void)type, (void)keyval, (void)value, (void)extra;
  type_deletes++;
  return MPI_SUCCESS;
}

/* A user-defined operation that calls MPI (MPI-4.1 §6.9.5 allows it). */
static void sum_with_extent(void *in, void *inout, int *len, MPI_Datatype *type) {
  MPI_Aint lb, extent;
  MPI_Type_get_extent(*type, &lb, &extent);
  for (int i = 0; i < *len; i++) ((int *)inout)[i] += ((int *)in)[i] * (int)(extent / (MPI_Aint)sizeof(int));
}

int main(int argc, char **argv) {
  int key, key2, dupkey, nullkey, flag, err, tkey;
  void *v;
  MPI_Comm dup;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  /* set, get, set over (deletes the old value), copy on dup */
  MPI_Comm_create_keyval(copy_plus_one, count_delete, &key, &key);
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &dupkey, NULL);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &nullkey, NULL);
  MPI_Comm_set_attr(MPI_COMM_WORLD, key, (void *)10);
  MPI_Comm_set_attr(MPI_COMM_WORLD, key, (void *)11);
  MPI_Comm_set_attr(MPI_COMM_WORLD, dupkey, (void *)20);
  MPI_Comm_set_attr(MPI_COMM_WORLD, nullkey, (void *)30);
  MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag);
  if (rank == 0) printf("world: %d %ld, deletes %d\n", flag, (long)v, deletes);

  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_get_attr(dup, key, &v, &flag);
  if (rank == 0) printf("dup key: %d %ld (copies %d)\n", flag, (long)v, copies);
  MPI_Comm_get_attr(dup, dupkey, &v, &flag);
  if (rank == 0) printf("dup dupkey: %d %ld\n", flag, (long)v);
  MPI_Comm_get_attr(dup, nullkey, &v, &flag);
  if (rank == 0) printf("dup nullkey: %d\n", flag);

  /* a freed key keeps its values; freeing the communicator deletes them, the last set first */
  MPI_Comm_free_keyval(&key);
  if (rank == 0) printf("freed key: %s\n", key == MPI_KEYVAL_INVALID ? "MPI_KEYVAL_INVALID" : "?");
  MPI_Comm_set_attr(dup, nullkey, (void *)31);
  if (rank == 0) printf("free dup:\n");
  MPI_Comm_free(&dup);
  if (rank == 0) printf("delete on world:\n");
  MPI_Comm_delete_attr(MPI_COMM_WORLD, nullkey);
  MPI_Comm_get_attr(MPI_COMM_WORLD, nullkey, &v, &flag);
  if (rank == 0) printf("after delete: %d\n", flag);

  /* errors, returned */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  err = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, (void *)1);
  MPI_Error_class(err, &err);
  if (rank == 0) printf("set MPI_TAG_UB: %d\n", err == MPI_ERR_KEYVAL);
  err = MPI_Comm_delete_attr(MPI_COMM_WORLD, nullkey);
  MPI_Error_class(err, &err);
  if (rank == 0) printf("delete what is not there: %d\n", err);
  MPI_Comm_create_keyval(failing_copy, MPI_COMM_NULL_DELETE_FN, &key2, NULL);
  MPI_Comm_set_attr(MPI_COMM_WORLD, key2, (void *)40);
  err = MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Error_class(err, &err);
  if (rank == 0) printf("dup with a failing copy: %d\n", err == MPI_ERR_OTHER);
  MPI_Comm_delete_attr(MPI_COMM_WORLD, key2);
  MPI_Comm_free_keyval(&key2);

  /* datatypes: a communicator's key does not fit a type */
  MPI_Datatype t, t2;
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, &tkey, NULL);
  MPI_Type_set_attr(t, tkey, (void *)50);
  MPI_Type_dup(t, &t2);
  MPI_Type_get_attr(t2, tkey, &v, &flag);
  if (rank == 0) printf("type dup: %d %ld\n", flag, (long)v);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  err = MPI_Type_set_attr(t, dupkey, (void *)1);
  MPI_Error_class(err, &err);
  if (rank == 0) printf("comm key on a type: %d\n", err == MPI_ERR_KEYVAL);
  MPI_Type_free(&t);
  MPI_Type_free(&t2);
  if (rank == 0) printf("type deletes: %d\n", type_deletes);
  MPI_Type_free_keyval(&tkey);

  /* the MPI-1 names */
  int oldkey;
  MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &oldkey, NULL);
  MPI_Attr_put(MPI_COMM_WORLD, oldkey, (void *)60);
  MPI_Attr_get(MPI_COMM_WORLD, oldkey, &v, &flag);
  if (rank == 0) printf("MPI-1: %d %ld\n", flag, (long)v);
  MPI_Attr_delete(MPI_COMM_WORLD, oldkey);
  MPI_Keyval_free(&oldkey);

  /* a user operation that calls MPI */
  MPI_Op op;
  int one = 1, sum = 0, size;
  MPI_Op_create(sum_with_extent, 1, &op);
  MPI_Allreduce(&one, &sum, 1, MPI_INT, op, MPI_COMM_WORLD);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) printf("user op calling MPI: %s\n", sum == size ? "the size" : "?");
  MPI_Op_free(&op);

  /* at MPI_Finalize: MPI_COMM_SELF's attributes, the last set first */
  int exitkey;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &exitkey, NULL);
  for (long i = 1; i <= 3; i++) MPI_Comm_set_attr(MPI_COMM_SELF, exitkey, (void *)i); /* 1 and 2 deleted now */
  int k2;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &k2, NULL);
  MPI_Comm_set_attr(MPI_COMM_SELF, k2, (void *)4);
  MPI_Comm_free_keyval(&exitkey);
  MPI_Comm_free_keyval(&k2);
  MPI_Finalize();
  return 0;
}
