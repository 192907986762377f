"""The harness's side of the driver protocol (README.md, "The protocol"), in pure Python.

Everything here is independent of any driver and of StarPU, so that it is unit-tested
on its own (test_harness.py):

- `load_scenario`: a scenario file -> expected lines, metadata and the *plan*: the
  operations a driver executes, with `repeat` expanded and each observation (`order`,
  `ran`, `done`, `callbacks`, `report`) replaced by `clock`;
- `needs` / `parse_capabilities` / `missing`: what a plan requires of a driver, what a
  driver says it can do (`DRIVER --capabilities`), and the difference;
- `parse_output` / `render`: a driver's stdout (events, `@clock` lines, output lines)
  -> the lines the scenario's `>` lines are compared with;
- `map_plan_lines`: a driver's "PLAN:N" messages -> the scenario's own line numbers.

By hand: `python3 conformance.py plan SCENARIO.scn` prints the plan a driver is given;
`DRIVER PLAN | python3 conformance.py render SCENARIO.scn` shows what the harness
compares with the `>` lines.
"""

import errno
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

# The operations the harness answers itself, from the driver's events.
OBSERVATIONS = ("order", "ran", "done", "callbacks", "report")

# Operations that create a task, and so a name observations may refer to.
TASK_MAKERS = ("insert", "task")

# The kinds of event line a driver prints (`@ev TICK KIND TASK [TEXT...]`).
EVENT_KINDS = ("start", "end", "cb", "report")


class ScenarioError(Exception):
    """A malformed scenario: the author's mistake, reported with file and line."""

    def __init__(self, path, line: int, message: str):
        super().__init__(f"{path}:{line}: scenario error: {message}")


# --------------------------------------------------------------------------------------
# Scenarios and plans


@dataclass
class Observation:
    """An observation of the scenario, rendered by the harness at a `@clock` line."""

    verb: str
    args: list
    line: int  # scenario line


@dataclass
class Step:
    """One line of the plan sent to the driver."""

    tokens: list
    line: int  # the scenario line it comes from
    iteration: Optional[int] = None  # the `repeat` iteration it is, if any
    observation: Optional[Observation] = None  # set when tokens == ["clock"]

    @property
    def text(self) -> str:
        return " ".join(self.tokens)

    def where(self, path) -> str:
        """'NAME.scn:LINE', with the repeat iteration when there is one."""
        place = f"{Path(path).name}:{self.line}"
        return place if self.iteration is None else f"{place} (repeat iteration {self.iteration})"


@dataclass
class Scenario:
    path: Path
    expected: list  # the `>` lines, in order
    divergent: dict  # implementation tag -> reason
    timeout: float
    plan: list  # of Step
    source: list = field(default_factory=list)  # the file's lines, for messages

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def observations(self) -> list:
        return [s.observation for s in self.plan if s.observation]

    def plan_text(self) -> str:
        """The plan file: one operation per line, nothing else."""
        return "".join(s.text + "\n" for s in self.plan)


def load_scenario(path, default_timeout: float = 120.0) -> Scenario:
    path = Path(path)
    return parse_scenario(path.read_text(), path, default_timeout)


def parse_scenario(text: str, path="scenario.scn", default_timeout: float = 120.0) -> Scenario:
    path = Path(path)
    expected, divergent, timeout, plan = [], {}, default_timeout, []
    tasks = set()  # names of the tasks created so far, for the observations' checks
    source = text.splitlines()
    for lineno, raw in enumerate(source, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith(">"):
            # "> text": the text after one blank; a bare ">" is an empty line.
            expected.append(line[2:].rstrip() if line.startswith("> ") else line[1:].rstrip())
        elif line.startswith("@divergent"):
            m = re.match(r"@divergent\s+(\S+?):\s*(.*)$", line)
            if not m:
                raise ScenarioError(path, lineno, "expected '@divergent TAG: reason'")
            divergent[m.group(1)] = m.group(2)
        elif line.startswith("@timeout"):
            parts = line.split()
            try:
                timeout = max(timeout, float(parts[1]))
            except (IndexError, ValueError):
                raise ScenarioError(path, lineno, "expected '@timeout SECONDS'") from None
        elif line.startswith("@"):
            raise ScenarioError(path, lineno, f"unknown metadata line {line!r}")
        else:
            for tokens, iteration in expand(line.split(), path, lineno):
                plan.append(plan_step(tokens, iteration, path, lineno, tasks))
    return Scenario(path, expected, divergent, timeout, plan, source)


def expand(tokens: list, path, lineno: int):
    """`repeat N OP...` -> N copies of OP with every `%` replaced by 0..N-1."""
    if tokens[0] != "repeat":
        return [(tokens, None)]
    if len(tokens) < 3 or not re.fullmatch(r"\d+", tokens[1]):
        raise ScenarioError(path, lineno, "expected 'repeat N OPERATION...'")
    if tokens[2] == "repeat":
        raise ScenarioError(path, lineno, "repeat cannot be nested")
    return [([t.replace("%", str(i)) for t in tokens[2:]], i) for i in range(int(tokens[1]))]


def plan_step(tokens: list, iteration, path, lineno: int, tasks: set) -> Step:
    verb, args = tokens[0], tokens[1:]
    if verb in TASK_MAKERS and args:
        tasks.add(args[0])
    if verb not in OBSERVATIONS:
        return Step(tokens, lineno, iteration)

    def fail(message):
        raise ScenarioError(path, lineno, message)

    if verb == "order" and len(args) < 2:
        fail("order: expected at least two events")
    if verb in ("ran", "done") and not args:
        fail(f"{verb}: expected events")
    if verb == "callbacks" and args:
        fail("callbacks takes no argument")
    if verb == "report" and (len(args) != 1 or args[0].startswith("cb:")):
        fail("report: expected one task")
    for event in args:
        task = event[3:] if event.startswith("cb:") else event
        if task not in tasks:
            fail(f"{verb}: unknown task '{task}' (no earlier insert or task line names it)")
    return Step(["clock"], lineno, iteration, Observation(verb, args, lineno))


# --------------------------------------------------------------------------------------
# Capabilities


def needs(plan: list) -> set:
    """What executing this plan requires of a driver, as (category, name) pairs."""
    req = set()
    for step in plan:
        verb, args = step.tokens[0], step.tokens[1:]
        req.add(("op", verb))
        if verb == "codelet" and len(args) >= 2:
            req.add(("kernel", args[1]))
            for mode in args[2:]:
                if mode.startswith("impl="):
                    # Implementations other than the CPU one (impl=opencl, cpu+cuda...).
                    req.update(("impl", i) for i in mode[5:].split("+") if i != "cpu")
                else:
                    req.add(("nbuffers", "variable") if mode == "*" else ("mode", mode))
        elif verb == "init":
            if any(a.startswith(("opencl=", "limit_opencl_mem=")) for a in args):
                req.add(("device", "opencl"))
            if any(a.startswith(("cuda=", "limit_cuda_mem=")) for a in args):
                req.add(("device", "cuda"))
        elif verb in TASK_MAKERS:
            for tok in args[2:]:
                if ":" in tok and "=" not in tok:  # MODE:HANDLE
                    mode, handle = tok.split(":", 1)
                    req.add(("mode", mode))
                    if handle == "null":
                        req.add(("handle", "null"))
                else:
                    req.add(("option", tok.split("=", 1)[0]))
        elif verb == "acquire" and len(args) >= 2:
            req.add(("mode", args[1]))
        elif verb == "partition" and len(args) >= 2:
            req.add(("filter", args[1]))
        elif verb == "data" and len(args) >= 2:
            req.add(("kind", args[1]))
            if args[-1] == "home=none":
                req.add(("home", "none"))
    return req


def parse_capabilities(text: str) -> set:
    """`DRIVER --capabilities` output -> (category, name) pairs; ValueError if malformed."""
    caps = set()
    for n, raw in enumerate(text.splitlines(), 1):
        parts = raw.split()
        if not parts:
            continue
        if len(parts) != 2:
            raise ValueError(f"capabilities line {n}: expected 'CATEGORY NAME', got {raw!r}")
        caps.add((parts[0], parts[1]))
    return caps


def missing(required: set, capabilities: set) -> list:
    """The requirements a driver lacks, as sorted 'category name' strings."""
    return sorted(f"{c} {n}" for c, n in required - capabilities)


# --------------------------------------------------------------------------------------
# Driver output


@dataclass(frozen=True)
class Event:
    tick: int
    kind: str  # start, end, cb, report
    task: str
    text: str = ""  # report events only


@dataclass(frozen=True)
class Clock:
    tick: int


@dataclass
class DriverOutput:
    events: list  # of Event, in the order printed
    lines: list  # of str (an output line) and Clock, in the order printed
    problems: list  # protocol violations found while reading


# Report kinds whose last word is a return code (the kernel table's `try_acquire`,
# `try_wait_all`; the C driver's view check).
CODE_REPORTS = ("acquire", "wait_all", "shape")


def code_name(code: str) -> str:
    """The canonical name of a return code a driver printed as a number: `OK` for 0, the
    errno's symbolic name for `-errno` (`-22` -> `EINVAL`, from the platform's errno table,
    so no driver keeps a table of its own), `RET<n>` for anything else. A word that is not a
    number is already a name and stays."""
    try:
        n = int(code)
    except ValueError:
        return code
    if n == 0:
        return "OK"
    name = errno.errorcode.get(-n) if n < 0 else None
    return ERRNO_ALIASES.get(name, name) if name else f"RET{n}"


# Where Linux has two names for one errno, Python's table may give either: the names
# StarPU's headers (and the scenarios) use.
ERRNO_ALIASES = {"EDEADLOCK": "EDEADLK", "EWOULDBLOCK": "EAGAIN", "EOPNOTSUPP": "ENOTSUP"}


def name_codes(line: str) -> str:
    """`line` with its return code named: the last word of an `error ...` output line."""
    parts = line.split(" ")
    if parts[0] == "error" and len(parts) >= 3:
        parts[-1] = code_name(parts[-1])
    return " ".join(parts)


def name_report_code(text: str) -> str:
    """A `report` event's text with its return code named (`acquire -35` -> `acquire EDEADLK`)."""
    parts = text.split(" ")
    if parts[0] in CODE_REPORTS and len(parts) == 2:
        parts[1] = code_name(parts[1])
    return " ".join(parts)


def parse_output(stdout: str) -> DriverOutput:
    events, lines, problems = [], [], []
    for n, raw in enumerate(stdout.splitlines(), 1):
        line = raw.rstrip()
        parts = line.split()
        head = parts[0] if parts else ""
        if head == "@ev":
            ok = (len(parts) >= 4 and parts[1].isdigit() and parts[2] in EVENT_KINDS
                  and (parts[2] == "report") == (len(parts) > 4))
            if ok:
                events.append(Event(int(parts[1]), parts[2], parts[3],
                                    name_report_code(" ".join(parts[4:]))))
            else:
                problems.append(f"stdout line {n}: malformed event line {line!r}")
        elif head == "@clock":
            if len(parts) == 2 and parts[1].isdigit():
                lines.append(Clock(int(parts[1])))
            else:
                problems.append(f"stdout line {n}: malformed clock line {line!r}")
        else:
            if re.search(r"@(ev|clock)\b", line):
                problems.append(f"stdout line {n}: an event or clock line was written into "
                                f"another line (lines must be written whole): {line!r}")
            lines.append(name_codes(line))
    problems.extend(check_events(events))
    return DriverOutput(events, lines, problems)


def check_events(events: list) -> list:
    """Events that cannot come from a correct run; a task that ran twice among them."""
    problems, ticks, seen = [], {}, {}
    for ev in events:
        if ev.tick in ticks:
            problems.append(f"tick {ev.tick} taken by two events ({ticks[ev.tick]} and "
                            f"{ev.kind} {ev.task}): every event must take a new tick")
        ticks[ev.tick] = f"{ev.kind} {ev.task}"
        if ev.kind != "report":
            seen.setdefault((ev.kind, ev.task), []).append(ev.tick)
    for (kind, task), at in sorted(seen.items()):
        if len(at) > 1 and kind == "start":
            problems.append(f"task {task} ran twice (start events at ticks "
                            f"{', '.join(map(str, sorted(at)))})")
        elif len(at) > 1 and kind == "cb":
            problems.append(f"the callback of task {task} ran twice (ticks "
                            f"{', '.join(map(str, sorted(at)))})")
        elif len(at) > 1:
            problems.append(f"task {task} ended twice (ticks {', '.join(map(str, sorted(at)))})")
    for (kind, task), at in sorted(seen.items()):
        if kind == "end" and ("start", task) not in seen:
            problems.append(f"task {task} has an end event but no start event")
        elif kind == "end" and min(at) < min(seen[("start", task)]):
            problems.append(f"task {task} ends (tick {min(at)}) before it starts")
    return problems


class History:
    """The events up to one clock value, indexed for the observations."""

    def __init__(self, events: list, clock: int):
        self.start, self.end, self.cb, self.report = {}, {}, {}, {}
        self.ncallbacks = 0
        for ev in sorted((e for e in events if e.tick <= clock), key=lambda e: e.tick):
            if ev.kind == "start":
                self.start.setdefault(ev.task, ev.tick)
            elif ev.kind == "end":
                self.end.setdefault(ev.task, ev.tick)
            elif ev.kind == "cb":
                self.cb.setdefault(ev.task, ev.tick)
                self.ncallbacks += 1
            else:
                self.report[ev.task] = ev.text  # the latest wins

    def span(self, event: str):
        """(start, end) ticks of an event; None for what has not happened."""
        if event.startswith("cb:"):
            t = self.cb.get(event[3:])
            return t, t
        return self.start.get(event), self.end.get(event)


def relation(history: History, a: str, b: str) -> str:
    a0, a1 = history.span(a)
    b0, b1 = history.span(b)
    if a0 is None or b0 is None:
        return "?"
    if a1 is not None and a1 < b0:
        return "<"
    if b1 is not None and b1 < a0:
        return ">"
    return "~"


def render_observation(obs: Observation, events: list, clock: int) -> str:
    h = History(events, clock)
    if obs.verb == "order":
        out = [obs.args[0]]
        for a, b in zip(obs.args, obs.args[1:]):
            out += [relation(h, a, b), b]
        return "order " + " ".join(out)
    if obs.verb in ("ran", "done"):
        which = 0 if obs.verb == "ran" else 1
        marks = (f"{e}={'yes' if h.span(e)[which] is not None else 'no'}" for e in obs.args)
        return f"{obs.verb} " + " ".join(marks)
    if obs.verb == "callbacks":
        return f"callbacks {h.ncallbacks}"
    if obs.verb == "report":
        task = obs.args[0]
        return f"report {task} {h.report.get(task) or '-'}"
    raise ValueError(f"not an observation: {obs.verb}")


def render(output: DriverOutput, observations: list):
    """The driver's output lines with each `@clock` replaced by its observation's line.

    Returns (lines, problems); problems are protocol violations (the test fails)."""
    lines, problems = [], list(output.problems)
    nclocks = 0
    for item in output.lines:
        if isinstance(item, Clock):
            if nclocks < len(observations):
                lines.append(render_observation(observations[nclocks], output.events,
                                                item.tick))
            nclocks += 1
        else:
            lines.append(item)
    if nclocks > len(observations):
        problems.append(f"the driver printed {nclocks} @clock lines for "
                        f"{len(observations)} clock operations")
    return lines, problems


# --------------------------------------------------------------------------------------
# Messages


def plan_ref(plan_path) -> str:
    """A regex for `PLAN:N`, PLAN being the plan file's path or its name; group 1 is N."""
    plan_path = Path(plan_path)
    names = sorted({str(plan_path), plan_path.name}, key=len, reverse=True)
    return "(?:" + "|".join(re.escape(n) for n in names) + r"):(\d+)"


def map_plan_lines(text: str, plan_path, scenario: Scenario, line_words: bool = False) -> str:
    """Rewrites the driver's references to plan lines as scenario lines.

    `PLAN:N` (the plan file's path or name, then the plan line) always; with
    `line_words`, also `line N` (for a driver's scenario-error message)."""
    def scenario_place(n: int) -> Optional[str]:
        if 1 <= n <= len(scenario.plan):
            return scenario.plan[n - 1].where(scenario.path)
        return None

    def by_path(m):
        return scenario_place(int(m.group(1))) or m.group(0)

    text = re.sub(plan_ref(plan_path), by_path, text)
    if line_words:
        def by_word(m):
            place = scenario_place(int(m.group(2)))
            return f"{m.group(1)} {place}" if place else m.group(0)
        text = re.sub(r"\b([Ll]ine) (\d+)\b", by_word, text)
    return text


def plan_line_of(stderr: str, plan_path) -> Optional[int]:
    """The first plan line a driver's error message names (`PLAN:N` or `line N`)."""
    m = re.search(plan_ref(plan_path), stderr) or re.search(r"\b[Ll]ine (\d+)\b", stderr)
    return int(m.group(1)) if m else None


# --------------------------------------------------------------------------------------
# The session table (conftest.py)


def table_lines(cells: dict) -> list:
    """The table and the per-driver totals, as text lines."""
    drivers = sorted({d for row in cells.values() for d in row})
    scenarios = sorted(cells)
    width = max(len("scenario"), *(len(s) for s in scenarios))
    cols = [max(len(d), 4) for d in drivers]
    header = ["scenario".ljust(width)] + [d.ljust(w) for d, w in zip(drivers, cols)]
    lines = ["  ".join(header).rstrip()]
    for s in scenarios:
        row = [cells[s].get(d, "-").ljust(w) for d, w in zip(drivers, cols)]
        lines.append("  ".join([s.ljust(width)] + row).rstrip())
    lines.append("")
    for d in drivers:
        column = [cells[s].get(d) for s in scenarios]
        lines.append(f"{d}: {column.count('pass')} passed, {column.count('FAIL')} failed, "
                     f"{column.count('skip')} skipped")
    return lines


# --------------------------------------------------------------------------------------
# By hand: the plan of a scenario, and a driver's stdout rendered as the harness does.

USAGE = """usage: conformance.py plan SCENARIO.scn        the plan a driver is given
       conformance.py render SCENARIO.scn < OUT  a driver's stdout, observations rendered"""


def main(argv: list) -> int:
    if len(argv) != 2 or argv[0] not in ("plan", "render"):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        scenario = load_scenario(argv[1])
    except (OSError, ScenarioError) as e:
        print(e, file=sys.stderr)
        return 2
    if argv[0] == "plan":
        sys.stdout.write(scenario.plan_text())
        return 0
    lines, problems = render(parse_output(sys.stdin.read()), scenario.observations)
    print("\n".join(lines))
    for p in problems:
        print(f"protocol: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
