"""Unit tests of the harness's pure parts (conformance.py): plans, capabilities, rendering
of observations from hand-written events, messages. No driver and no StarPU involved."""

import pytest

from conformance import (Clock, code_name, Event, Observation, ScenarioError, check_events, map_plan_lines,
                         missing, needs, parse_capabilities, parse_output, parse_scenario,
                         plan_line_of, render, render_observation, table_lines)

# --------------------------------------------------------------------------------------
# Plans

SCENARIO = """\
# opening comment
@divergent starpu-1.3: it differs
@timeout 300
init ncpus=2 sched=eager
codelet ad add RW
data x variable 0
repeat 3 insert a% ad RW:x value=%
order a0 a1 a2
> order a0 < a1 < a2
wait_all
ran a0 cb:a1
> ran a0=yes cb:a1=no
callbacks
> callbacks 0
read x
> read x = 3
shutdown
"""


def test_plan_expands_repeat_and_replaces_observations_by_clock():
    s = parse_scenario(SCENARIO, "x.scn")
    assert s.plan_text().splitlines() == [
        "init ncpus=2 sched=eager",
        "codelet ad add RW",
        "data x variable 0",
        "insert a0 ad RW:x value=0",
        "insert a1 ad RW:x value=1",
        "insert a2 ad RW:x value=2",
        "clock",
        "wait_all",
        "clock",
        "clock",
        "read x",
        "shutdown",
    ]
    assert [(o.verb, o.args, o.line) for o in s.observations] == [
        ("order", ["a0", "a1", "a2"], 8),
        ("ran", ["a0", "cb:a1"], 11),
        ("callbacks", [], 13),
    ]
    assert s.expected == ["order a0 < a1 < a2", "ran a0=yes cb:a1=no", "callbacks 0",
                          "read x = 3"]
    assert s.divergent == {"starpu-1.3": "it differs"}
    assert s.timeout == 300
    # Plan lines remember their scenario line and repeat iteration.
    assert [(p.line, p.iteration) for p in s.plan[3:7]] == [(7, 0), (7, 1), (7, 2), (8, None)]


def test_repeat_replaces_every_percent_and_zero_repeats_nothing():
    s = parse_scenario("repeat 2 insert t%_% c RW:v.% value=%\nrepeat 0 wait_all\n")
    assert s.plan_text() == ("insert t0_0 c RW:v.0 value=0\n"
                             "insert t1_1 c RW:v.1 value=1\n")


@pytest.mark.parametrize("text, message", [
    ("repeat x insert a c\n", "x.scn:1: scenario error: expected 'repeat N OPERATION...'"),
    ("repeat 2\n", "expected 'repeat N OPERATION...'"),
    ("repeat 2 repeat 2 wait_all\n", "repeat cannot be nested"),
    ("init\norder a b\n", "x.scn:2: scenario error: order: unknown task 'a'"),
    ("insert a c\norder a\n", "order: expected at least two events"),
    ("insert a c\nran cb:b\n", "ran: unknown task 'b'"),
    ("insert a c\nreport cb:a\n", "report: expected one task"),
    ("callbacks 3\n", "callbacks takes no argument"),
    ("@frobnicate\n", "unknown metadata line"),
    ("@divergent starpu-1.3 no colon\n", "expected '@divergent TAG: reason'"),
])
def test_malformed_scenarios_name_their_line(text, message):
    with pytest.raises(ScenarioError) as e:
        parse_scenario(text, "x.scn")
    assert message in str(e.value)


def test_observation_may_name_a_task_created_later_only_after_it_exists():
    # report names a task made by `task` earlier: fine; the same name before it: refused.
    parse_scenario("task t c nodetach\nreport t\n")
    with pytest.raises(ScenarioError):
        parse_scenario("report t\ntask t c nodetach\n")


# --------------------------------------------------------------------------------------
# Capabilities

NEEDS_SCENARIO = """\
init ncpus=1 sched=eager
codelet g gate
codelet s sum *
codelet c add RW|COMMUTE
data v vector 4 home=none
data m matrix 2 2
partition m matrix_block 2
task t1 g prio=2 tag=4 nodetach value=0
insert t2 c RW|COMMUTE:v value=1 callback delay=5
insert t3 s W:v R:null
acquire v R
await cb:t2
ran t1
"""


def test_needs_are_derived_from_operations():
    got = needs(parse_scenario(NEEDS_SCENARIO).plan)
    assert got == {
        ("op", "init"), ("op", "codelet"), ("op", "data"), ("op", "partition"),
        ("op", "task"), ("op", "insert"), ("op", "acquire"), ("op", "await"),
        ("op", "clock"),
        ("kernel", "gate"), ("kernel", "sum"), ("kernel", "add"),
        ("nbuffers", "variable"),
        ("mode", "RW|COMMUTE"), ("mode", "W"), ("mode", "R"),
        ("kind", "vector"), ("kind", "matrix"), ("home", "none"),
        ("filter", "matrix_block"),
        ("option", "prio"), ("option", "tag"), ("option", "nodetach"), ("option", "value"),
        ("option", "callback"), ("option", "delay"),
        ("handle", "null"),
    }
    # The observation itself is not a need: the driver only sees `clock`.
    assert ("op", "ran") not in got


def test_missing_capabilities_are_named():
    caps = parse_capabilities("op init\nop codelet\n\nkernel noop\nmode RW|COMMUTE\n")
    assert ("mode", "RW|COMMUTE") in caps
    required = {("op", "init"), ("kernel", "gate"), ("mode", "RW|COMMUTE"), ("home", "none")}
    assert missing(required, caps) == ["home none", "kernel gate"]
    assert missing({("op", "init")}, caps) == []


def test_malformed_capabilities_are_refused():
    with pytest.raises(ValueError, match="line 2"):
        parse_capabilities("op init\nkernel\n")
    with pytest.raises(ValueError):
        parse_capabilities("op init extra\n")


# --------------------------------------------------------------------------------------
# Rendering


def ev(tick, kind, task, text=""):
    return Event(tick, kind, task, text)


def obs(verb, *args):
    return Observation(verb, list(args), 1)


# a: ticks 1-2, b: 3-6, c: 4-5 (inside b), cb:a at 7, d: started at 8, never ended.
EVENTS = [ev(1, "start", "a"), ev(2, "end", "a"), ev(3, "start", "b"), ev(4, "start", "c"),
          ev(5, "end", "c"), ev(6, "end", "b"), ev(7, "cb", "a"), ev(8, "start", "d")]


@pytest.mark.parametrize("events, clock, expected", [
    (["a", "b"], 8, "order a < b"),              # a ended before b started
    (["b", "a"], 8, "order b > a"),              # the second ended before the first started
    (["b", "c"], 8, "order b ~ c"),              # overlap
    (["c", "b"], 8, "order c ~ b"),
    (["a", "e"], 8, "order a ? e"),              # e never ran
    (["e", "a"], 8, "order e ? a"),
    (["a", "cb:a"], 8, "order a < cb:a"),        # a callback is a point
    (["cb:a", "b"], 8, "order cb:a > b"),
    (["b", "d"], 8, "order b < d"),
    (["d", "cb:a"], 8, "order d > cb:a"),
    (["a", "d", "b"], 8, "order a < d > b"),     # consecutive pairs
    (["d", "b"], 5, "order d ? b"),              # at clock 5, d has not started
    (["b", "c"], 4, "order b ~ c"),              # both started, none ended
    (["a", "b"], 2, "order a ? b"),
    (["a", "b"], 3, "order a < b"),
    (["c", "b"], 5, "order c ~ b"),              # b has not ended yet at 5
])
def test_order(events, clock, expected):
    assert render_observation(obs("order", *events), EVENTS, clock) == expected


def test_ran_and_done_at_a_clock():
    assert render_observation(obs("ran", "a", "b", "d", "e", "cb:a"), EVENTS, 8) == \
        "ran a=yes b=yes d=yes e=no cb:a=yes"
    assert render_observation(obs("done", "a", "b", "d", "e", "cb:a"), EVENTS, 8) == \
        "done a=yes b=yes d=no e=no cb:a=yes"
    # Events after the clock are ignored.
    assert render_observation(obs("ran", "b", "d", "cb:a"), EVENTS, 6) == \
        "ran b=yes d=no cb:a=no"
    assert render_observation(obs("done", "b", "c"), EVENTS, 5) == "done b=no c=yes"


def test_callbacks_counts_callback_events_up_to_the_clock():
    events = [ev(1, "start", "a"), ev(2, "end", "a"), ev(3, "cb", "a"), ev(4, "start", "b"),
              ev(5, "end", "b"), ev(6, "cb", "b")]
    assert render_observation(obs("callbacks"), events, 0) == "callbacks 0"
    assert render_observation(obs("callbacks"), events, 3) == "callbacks 1"
    assert render_observation(obs("callbacks"), events, 5) == "callbacks 1"
    assert render_observation(obs("callbacks"), events, 6) == "callbacks 2"


def test_report_latest_wins():
    events = [ev(1, "start", "t"), ev(2, "report", "t", "acquire EDEADLK"),
              ev(3, "report", "u", "wait_all OK"), ev(4, "report", "t", "wait_all EDEADLK"),
              ev(5, "end", "t")]
    assert render_observation(obs("report", "t"), events, 5) == "report t wait_all EDEADLK"
    assert render_observation(obs("report", "t"), events, 3) == "report t acquire EDEADLK"
    assert render_observation(obs("report", "t"), events, 1) == "report t -"
    assert render_observation(obs("report", "v"), events, 5) == "report v -"
    # Printed out of tick order (threads), the latest tick still wins.
    shuffled = [events[3], events[1], events[0]]
    assert render_observation(obs("report", "t"), shuffled, 5) == "report t wait_all EDEADLK"


def test_a_task_that_ran_twice_fails():
    events = [ev(1, "start", "t"), ev(2, "end", "t"), ev(3, "start", "t"), ev(4, "end", "t")]
    problems = check_events(events)
    assert "task t ran twice (start events at ticks 1, 3)" in problems
    out = parse_output("@ev 1 start t\n@ev 2 end t\n@ev 3 start t\n@ev 4 end t\n@clock 4\n")
    lines, problems = render(out, [obs("done", "t")])
    assert lines == ["done t=yes"]
    assert any("ran twice" in p for p in problems)


def test_inconsistent_events_are_protocol_errors():
    assert check_events([ev(1, "start", "a"), ev(1, "start", "b")]) == [
        "tick 1 taken by two events (start a and start b): every event must take a new tick"]
    assert check_events([ev(1, "end", "a")]) == ["task a has an end event but no start event"]
    assert check_events([ev(2, "start", "a"), ev(1, "end", "a")]) == [
        "task a ends (tick 1) before it starts"]
    assert check_events([ev(1, "cb", "a"), ev(2, "cb", "a")]) == [
        "the callback of task a ran twice (ticks 1, 2)"]
    assert check_events(EVENTS) == []


def test_output_is_split_into_events_clocks_and_lines():
    stdout = ("error insert t1 EINVAL\n"
              "@ev 1 start a\n"
              "@ev 2 report a acquire  EDEADLK  \n"
              "@clock 2\n"
              "@ev 3 end a\n"
              "read x = 1 2 | 3 4   \n"
              "@clock 3\n")
    out = parse_output(stdout)
    assert out.events == [ev(1, "start", "a"), ev(2, "report", "a", "acquire EDEADLK"),
                          ev(3, "end", "a")]
    assert out.lines == ["error insert t1 EINVAL", Clock(2), "read x = 1 2 | 3 4", Clock(3)]
    assert out.problems == []
    lines, problems = render(out, [obs("done", "a"), obs("report", "a")])
    assert lines == ["error insert t1 EINVAL", "done a=no", "read x = 1 2 | 3 4",
                     "report a acquire EDEADLK"]
    assert problems == []


def test_events_printed_after_the_clock_line_still_count_up_to_its_tick():
    # A worker's event line may reach stdout after the main thread's @clock line when
    # their order is not fixed by a lock; the tick decides, not the position.
    out = parse_output("@clock 2\n@ev 2 end a\n@ev 1 start a\n@ev 3 cb a\n")
    lines, problems = render(out, [obs("done", "a", "cb:a")])
    assert lines == ["done a=yes cb:a=no"]
    assert problems == []


@pytest.mark.parametrize("stdout, problem", [
    ("@ev x start a\n", "malformed event line"),
    ("@ev 1 begin a\n", "malformed event line"),
    ("@ev 1 start\n", "malformed event line"),
    ("@ev 1 start a extra\n", "malformed event line"),
    ("@ev 1 report a\n", "malformed event line"),
    ("@clock\n", "malformed clock line"),
    ("@clock 1 2\n", "malformed clock line"),
    ("read x = @ev 1 start a\n", "written into another line"),
    ("read x =@clock 3\n", "written into another line"),
])
def test_malformed_protocol_lines(stdout, problem):
    out = parse_output(stdout)
    assert len(out.problems) == 1 and problem in out.problems[0]


def test_clock_lines_beyond_the_observations_are_a_problem():
    lines, problems = render(parse_output("@clock 0\n@clock 0\n"), [obs("callbacks")])
    assert lines == ["callbacks 0"]
    assert problems == ["the driver printed 2 @clock lines for 1 clock operations"]


def test_missing_clock_lines_leave_observations_out():
    # A driver that crashed early: the output is short and the comparison shows it.
    lines, problems = render(parse_output("read x = 1\n"), [obs("callbacks")])
    assert lines == ["read x = 1"]
    assert problems == []


# --------------------------------------------------------------------------------------
# Messages and the table


def test_plan_lines_are_mapped_to_scenario_lines(tmp_path):
    s = parse_scenario("init ncpus=1 sched=eager\n# c\nrepeat 2 insert a% n\nshutdown\n",
                       tmp_path / "s.scn")
    plan = tmp_path / "s.plan"
    stderr = f"{plan}:3: scenario error: unknown codelet 'n'\nalso s.plan:4 and x.c:3\n"
    assert map_plan_lines(stderr, plan, s) == (
        "s.scn:3 (repeat iteration 1): scenario error: unknown codelet 'n'\n"
        "also s.scn:4 and x.c:3\n")
    assert plan_line_of(stderr, plan) == 3
    # "line N" is mapped only where asked (a driver's scenario-error message).
    assert map_plan_lines("error at line 1", plan, s) == "error at line 1"
    assert map_plan_lines("error at line 1", plan, s, line_words=True) == \
        "error at line s.scn:1"
    assert plan_line_of("Line 2: bad", plan) == 2
    # A line number beyond the plan stays as it was.
    assert map_plan_lines(f"{plan}:9: x", plan, s) == f"{plan}:9: x"


def test_table_and_totals():
    cells = {"b_scn": {"c": "pass", "rust": "skip"}, "a_scn": {"c": "FAIL"}}
    assert table_lines(cells) == [
        "scenario  c     rust",
        "a_scn     FAIL  -",
        "b_scn     pass  skip",
        "",
        "c: 1 passed, 1 failed, 0 skipped",
        "rust: 0 passed, 0 failed, 1 skipped",
    ]


def test_return_codes_printed_as_numbers_are_named_by_the_harness():
    out = parse_output("error insert t1 -22\nerror wait_all -35\nread x = 5\n"
                       "@ev 1 report t acquire -35\n@ev 2 report u worker 2\n"
                       "@ev 3 report v wait_all 0\nerror submit t2 EINVAL\n")
    assert out.lines == ["error insert t1 EINVAL", "error wait_all EDEADLK", "read x = 5",
                         "error submit t2 EINVAL"]
    assert [e.text for e in out.events] == ["acquire EDEADLK", "worker 2", "wait_all OK"]
    assert code_name("-125") == "ECANCELED"
    assert code_name("-99999") == "RET-99999"
