/* transaction: tasks grouped in epochs that a start function confirms or cancels.
 *
 * Six epochs of five increments each; the start function confirms the epochs whose
 * argument is even. Only confirmed epochs' kernels run (the value counts them), every
 * task still ends and runs its callback, and the start function is asked once per epoch,
 * in order. Without a start function every epoch runs. A codelet with a fixed number of
 * buffers cannot take part (the transaction adds one): -EINVAL, nothing submitted.
 */
#include "test_common.h"

#define EPOCHS 6
#define PER_EPOCH 5

static void inc_cpu(void *buffers[], void *arg)
{
	(void)arg;
	int *v = (int *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	(*v)++;
}

static struct starpu_codelet inc_cl = {
	.cpu_funcs = { inc_cpu },
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "trs_inc",
};

static struct starpu_codelet fixed_cl = {
	.cpu_funcs = { inc_cpu },
	.nbuffers = 1,
	.modes = { STARPU_RW },
	.name = "fixed_inc",
};

static int asked[EPOCHS];
static int nasked;

static int start_even(void *buffer, void *arg)
{
	int epoch = (int)(intptr_t)arg;
	CHECK(buffer == NULL, "no synchronisation buffer expected, got %p", buffer);
	if (nasked < EPOCHS)
		asked[nasked] = epoch;
	nasked++;
	return epoch % 2 == 0;
}

static int callbacks;

static void count_callback(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&callbacks, 1, __ATOMIC_SEQ_CST);
}

static int run_epochs(int (*start)(void *, void *))
{
	int value = 0;
	starpu_data_handle_t h;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&value, sizeof(value));
	struct starpu_transaction *trs = starpu_transaction_open(start, (void *)(intptr_t)0);
	CHECK(trs != NULL, "starpu_transaction_open returned NULL");
	if (!trs)
		exit(1);
	for (int e = 0; e < EPOCHS; e++) {
		if (e > 0)
			starpu_transaction_next_epoch(trs, (void *)(intptr_t)e);
		for (int i = 0; i < PER_EPOCH; i++)
			MUST(starpu_task_insert(&inc_cl, STARPU_RW, h, STARPU_TRANSACTION, trs,
						STARPU_CALLBACK, count_callback, 0));
	}
	starpu_transaction_close(trs);
	starpu_task_wait_for_all();
	starpu_data_unregister(h);
	return value;
}

int main(void)
{
	tc_init_ncpus(-1);

	int value = run_epochs(start_even);
	CHECK(value == (EPOCHS / 2) * PER_EPOCH, "value %d, expected %d (confirmed epochs only)",
	      value, (EPOCHS / 2) * PER_EPOCH);
	CHECK(callbacks == EPOCHS * PER_EPOCH, "%d callbacks, expected %d (every task ends)",
	      callbacks, EPOCHS * PER_EPOCH);
	CHECK(nasked == EPOCHS, "start function asked %d times, expected %d", nasked, EPOCHS);
	for (int e = 0; e < EPOCHS && e < nasked; e++)
		CHECK(asked[e] == e, "call %d of the start function was for epoch %d", e, asked[e]);

	value = run_epochs(NULL);
	CHECK(value == EPOCHS * PER_EPOCH, "without a start function: value %d, expected %d",
	      value, EPOCHS * PER_EPOCH);

	int v = 0;
	starpu_data_handle_t h;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&v, sizeof(v));
	struct starpu_transaction *trs = starpu_transaction_open(NULL, NULL);
	int ret = starpu_task_insert(&fixed_cl, STARPU_RW, h, STARPU_TRANSACTION, trs, 0);
	CHECK(ret == -EINVAL, "a fixed-buffer codelet in a transaction: %d, expected -EINVAL", ret);
	starpu_transaction_close(trs);
	starpu_task_wait_for_all();
	starpu_data_unregister(h);
	CHECK(v == 0, "the refused task ran (value %d)", v);

	starpu_shutdown();
	return tc_failures ? 1 : 0;
}
