/* starpu_worker_list and starpu_worker_tree: the method tables of worker collections,
 * copied into a collection and initialised as a policy does; a list iterates in the order
 * workers were added, a tree in topology (worker id) order. */
#include "test_common.h"

static int walk(struct starpu_worker_collection *c, int *out)
{
	struct starpu_sched_ctx_iterator it;
	int n = 0;
	c->init_iterator(c, &it);
	while (c->has_next(c, &it) && n < 8)
		out[n++] = c->get_next(c, &it);
	return n;
}

static void check_kind(struct starpu_worker_collection table, const int *order, const char *name)
{
	struct starpu_worker_collection c = table;
	c.init(&c);
	CHECK(c.nworkers == 0 && c.workerids != NULL, "%s: init", name);
	CHECK(c.add(&c, 2) == 2 && c.add(&c, 0) == 0 && c.add(&c, 1) == 1, "%s: add", name);
	CHECK(c.add(&c, 0) == -1, "%s: a worker added twice", name);
	CHECK(c.nworkers == 3 && c.present[0] && c.present[1] && c.present[2], "%s: 3 present", name);
	int seen[8];
	int n = walk(&c, seen);
	CHECK(n == 3 && seen[0] == order[0] && seen[1] == order[1] && seen[2] == order[2],
	      "%s: order %d %d %d (n %d)", name, seen[0], seen[1], seen[2], n);
	CHECK(c.remove(&c, 0) == 0 && c.remove(&c, 0) == -1, "%s: remove", name);
	n = walk(&c, seen);
	CHECK(n == 2 && seen[0] == order[3] && seen[1] == order[4], "%s: order after removal %d %d", name,
	      seen[0], seen[1]);
	c.deinit(&c);
	CHECK(c.workerids == NULL, "%s: deinit", name);
}

int main(void)
{
	CHECK(starpu_worker_list.type == STARPU_WORKER_LIST, "list type");
	CHECK(starpu_worker_tree.type == STARPU_WORKER_TREE, "tree type");
	const int list_order[] = {2, 0, 1, 2, 1};
	const int tree_order[] = {0, 1, 2, 1, 2};
	check_kind(starpu_worker_list, list_order, "list");
	check_kind(starpu_worker_tree, tree_order, "tree");
	return tc_finish("worker_collections");
}
