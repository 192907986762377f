/* What the StarPU-MPI tests share: starting StarPU-MPI, checks that name the rank.
 * Every program runs under `mpirun -np 4` (tests/mpi/run.sh); each check that fails
 * prints the rank, the place and what was found, and the program exits 1. */
#ifndef TESTS_MPI_TEST_H
#define TESTS_MPI_TEST_H

#include <starpu_mpi.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int mt_rank = -1, mt_size = -1, mt_failures;

#define CHECK(cond, ...)                                                              \
	do {                                                                          \
		if (!(cond)) {                                                        \
			mt_failures++;                                                \
			fprintf(stderr, "[rank %d] %s:%d: check failed: %s: ", mt_rank, \
				__FILE__, __LINE__, #cond);                           \
			fprintf(stderr, __VA_ARGS__);                                 \
			fputc('\n', stderr);                                          \
		}                                                                     \
	} while (0)

#define MUST(call)                                                                    \
	do {                                                                          \
		int mt_ret_ = (call);                                                 \
		if (mt_ret_ != 0) {                                                   \
			fprintf(stderr, "[rank %d] %s:%d: %s returned %d\n", mt_rank,    \
				__FILE__, __LINE__, #call, mt_ret_);                  \
			exit(1);                                                      \
		}                                                                     \
	} while (0)

/* StarPU and StarPU-MPI, which initialises MPI; `ncpus` CPU workers (-1: default). */
static inline void mt_init(int *argc, char ***argv, int ncpus)
{
	struct starpu_conf conf;
	starpu_conf_init(&conf);
	conf.ncpus = ncpus;
	MUST(starpu_mpi_init_conf(argc, argv, 1, MPI_COMM_WORLD, &conf));
	MUST(starpu_mpi_comm_rank(MPI_COMM_WORLD, &mt_rank));
	MUST(starpu_mpi_comm_size(MPI_COMM_WORLD, &mt_size));
}

/* Shuts everything down; the exit code says whether every check passed here. */
static inline int mt_finish(void)
{
	MUST(starpu_mpi_shutdown());
	if (mt_failures)
		fprintf(stderr, "[rank %d] %d check(s) failed\n", mt_rank, mt_failures);
	return mt_failures ? 1 : 0;
}

#endif
