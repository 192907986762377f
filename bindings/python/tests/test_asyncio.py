"""asyncio: starpu futures are asyncio future-likes, and tasks' ends reach the event loop
in batches (counted as the loop's wake-ups, never timed)."""

import asyncio
import threading

import pytest

import starpu


def add(a, b):
    return a + b


def test_a_starpu_future_is_an_asyncio_future_like(rt):
    async def main():
        fut = starpu.task_submit()(add, 1, 2)
        assert asyncio.isfuture(fut)
        assert fut.get_loop() is asyncio.get_running_loop()
        assert await asyncio.wait_for(fut, timeout=60) == 3
        done, pending = await asyncio.wait([starpu.task_submit()(add, 2, 2)])
        assert [f.result() for f in done] == [4] and not pending
        return await asyncio.shield(starpu.task_submit()(add, 3, 3))

    assert asyncio.run(main()) == 6
    with pytest.raises(RuntimeError, match="no running event loop"):
        starpu.task_submit()(add, 0, 0).get_loop()


def test_ends_reach_the_loop_in_one_batch(rt):
    n = 500

    async def main():
        loop = asyncio.get_running_loop()
        starpu.pause()
        futs = [starpu.task_submit()(add, i, 1) for i in range(n)]
        # gather adds its callback to each future now; none has ended (paused).
        gathered = asyncio.gather(*futs)
        before = starpu._core._loop_wakeups(loop)
        starpu.resume()
        # Every task ends while the loop is blocked here: one batch.
        starpu.task_wait_for_all()
        values = await gathered
        return values, before, starpu._core._loop_wakeups(loop)

    values, before, after = asyncio.run(main())
    assert values == [i + 1 for i in range(n)]
    assert (before, after) == (0, 1)


def test_awaiting_coroutines_are_woken_in_one_batch(rt):
    n = 200

    async def one(fut):
        return await fut

    async def main():
        loop = asyncio.get_running_loop()
        starpu.pause()
        futs = [starpu.task_submit()(add, i, i) for i in range(n)]
        tasks = [asyncio.ensure_future(one(f)) for f in futs]
        await asyncio.sleep(0)  # each Task runs to its await: a callback per future
        starpu.resume()
        starpu.task_wait_for_all()
        values = await asyncio.gather(*tasks)
        return values, starpu._core._loop_wakeups(loop)

    values, wakeups = asyncio.run(main())
    assert values == [2 * i for i in range(n)]
    assert wakeups == 1


def test_done_callbacks_run_in_the_loop_thread_and_can_be_removed(rt):
    async def main():
        loop_thread = threading.get_ident()
        seen, removed = [], []
        gate = threading.Event()
        fut = starpu.task_submit()(gate.wait, 10)
        fut.add_done_callback(lambda f: seen.append((f.result(), threading.get_ident())))

        def never(f):
            removed.append(f)

        fut.add_done_callback(never)
        fut.add_done_callback(never)
        assert fut.remove_done_callback(never) == 2
        gate.set()
        await fut
        await asyncio.sleep(0)
        return seen, removed, loop_thread

    seen, removed, loop_thread = asyncio.run(main())
    assert seen == [(True, loop_thread)] and removed == []


def test_callbacks_outside_a_loop_run_where_the_task_ends(rt):
    seen = threading.Event()
    fut = starpu.task_submit()(add, 1, 1)
    fut.result()
    fut.add_done_callback(lambda f: seen.set())  # ended already: at once
    assert seen.is_set()


def test_a_closed_loop_does_not_stop_later_loops(rt):
    for i in range(3):
        async def main():
            return await asyncio.gather(*[starpu.task_submit()(add, i, j) for j in range(10)])

        assert asyncio.run(main()) == [i + j for j in range(10)]
