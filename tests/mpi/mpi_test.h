/* What the StarPU-MPI tests share: starting StarPU-MPI, checks that name the rank.
 * Every program runs under `mpirun -np 4` (tests/mpi/run.sh); each check that fails
 * prints the rank, the place and what was found, and the program exits 1. */
#ifndef TESTS_MPI_TEST_H
#define TESTS_MPI_TEST_H

#include <starpu_mpi.h>

static int mt_rank = -1, mt_size = -1;

/* CHECK and MUST as in the C tests, their messages starting with the rank. */
#define TC_WHO_FMT "[rank %d] "
#define TC_WHO_ARGS mt_rank,
#include "test_common.h"

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
	if (tc_failures)
		fprintf(stderr, "[rank %d] %d check(s) failed\n", mt_rank, tc_failures);
	return tc_failures ? 1 : 0;
}

#endif
