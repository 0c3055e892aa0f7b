/* mpisim.h: what a C program run by mpisim may ask of the simulator beyond MPI. */
#ifndef MPISIM_H
#define MPISIM_H

#ifdef __cplusplus
extern "C" {
#endif

/* Charges `seconds` of computation to the calling rank: its virtual clock moves
 * on by that much, as if the code between two MPI calls had run that long. The
 * program's own code costs no virtual time otherwise. */
void mpisim_compute(double seconds);

#ifdef __cplusplus
}
#endif

#endif /* MPISIM_H */
