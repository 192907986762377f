"""The shared conformance suite: every scenario through every driver.

One test per (driver, scenario). The harness turns scenarios/<name>.scn into a plan
(`repeat` expanded, observations replaced by `clock`), runs the driver on it, renders the
observations from the events the driver printed, and compares the result with the
scenario's `>` lines. The protocol, the format and the environment variables are
described in README.md next to this file; the pure parts live in conformance.py.

    python3 -m pytest tests/conformance                        # ours (STARPU_PREFIX)
    STARPU_PC=starpu-1.3 python3 -m pytest tests/conformance    # Debian's StarPU 1.3
"""

import difflib
import fcntl
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

import pytest

from conformance import (Scenario, ScenarioError, load_scenario, map_plan_lines, missing,
                         needs, parse_capabilities, parse_output, parse_scenario, plan_line_of,
                         render)

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SCENARIOS = sorted((HERE / "scenarios").glob("*.scn"))
TIMEOUT = float(os.environ.get("STARPU_CONFORMANCE_TIMEOUT", "120"))

# Exit statuses of a driver: a malformed plan line, an operation its face cannot express.
EXIT_SCENARIO_ERROR = 2
EXIT_UNSUPPORTED = 77


# --------------------------------------------------------------------------------------
# Drivers


@dataclass
class Built:
    """The outcome of building a driver once per session."""

    command: Optional[list] = None  # argv prefix; the plan file's path is appended
    env: dict = field(default_factory=dict)  # extra environment for the driver
    implementation: str = "ours"  # tag matched against @divergent lines
    description: str = ""  # what it runs against, for messages
    skip: Optional[str] = None  # toolchain missing: skip with this reason
    error: Optional[str] = None  # build failed: every test of this driver fails
    capabilities: set = field(default_factory=set)  # from `DRIVER --capabilities`


@dataclass
class Driver:
    name: str
    tools: list  # programs that must be on PATH, else the driver is skipped
    build: Callable[["Driver"], Built]

    @property
    def src(self) -> Path:
        return HERE / "drivers" / self.name


def run(cmd, env=None, cwd=None):
    return subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)


def library_env():
    """(pkg-config name, our prefix, environment) for the library STARPU_PC names."""
    pc = os.environ.get("STARPU_PC", "starpu-1.4")
    prefix = Path(os.environ.get("STARPU_PREFIX", REPO / "build" / "install"))
    ours_pc_dir = str(prefix / "lib" / "pkgconfig")
    inherited = [p for p in os.environ.get("PKG_CONFIG_PATH", "").split(":") if p]
    if pc == "starpu-1.4":
        paths = [ours_pc_dir] + [p for p in inherited if p != ours_pc_dir]
    else:
        # Our install also provides starpu-1.3.pc: keep it out of the way, so that
        # STARPU_PC=starpu-1.3 means the real StarPU.
        paths = [p for p in inherited if os.path.realpath(p) != os.path.realpath(ours_pc_dir)]
    env = dict(os.environ, PKG_CONFIG_PATH=":".join(paths))
    return pc, prefix, env


def implementation_tag(version: str) -> str:
    """'ours', or 'starpu-X.Y' when the library is the real StarPU."""
    override = os.environ.get("STARPU_REFERENCE")
    if override:
        return override
    # We never report a version below 1.4; Debian's StarPU is 1.3.x.
    m = re.match(r"(\d+)\.(\d+)", version)
    if m and (int(m.group(1)), int(m.group(2))) < (1, 4):
        return f"starpu-{m.group(1)}.{m.group(2)}"
    return "ours"


def build_with_make(driver: Driver) -> Built:
    """A driver compiled by its Makefile against the StarPU pkg-config finds.

    `make -s STARPU_PC=<pc> BUILD=<dir>` in drivers/<name>/ must produce <dir>/driver;
    the folder is drivers/<name>/build/<pc> (git-ignored)."""
    pc, prefix, env = library_env()
    if run(["pkg-config", "--exists", pc], env=env).returncode != 0:
        hint = (
            f"our library is not installed under STARPU_PREFIX={prefix}: "
            f"run `make install PREFIX={prefix}` (or set STARPU_PREFIX)"
            if pc == "starpu-1.4"
            else f"set PKG_CONFIG_PATH so that pkg-config finds {pc}"
        )
        return Built(error=f"pkg-config cannot find {pc} "
                     f"(PKG_CONFIG_PATH={env['PKG_CONFIG_PATH']!r}): {hint}")
    version = run(["pkg-config", "--modversion", pc], env=env).stdout.strip()
    libdir = run(["pkg-config", "--variable=libdir", pc], env=env).stdout.strip()
    build_dir = driver.src / "build" / pc
    build_dir.mkdir(parents=True, exist_ok=True)
    # One build at a time (pytest-xdist workers share the build folder).
    with open(build_dir.parent / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        proc = run(["make", "-s", f"STARPU_PC={pc}", f"BUILD={build_dir}"], env=env,
                   cwd=driver.src)
    description = f"{pc} {version} from {libdir}"
    if proc.returncode != 0:
        return Built(error=f"building the {driver.name} driver against {description} "
                     f"failed:\n{proc.stdout}{proc.stderr}")
    return Built(command=[str(build_dir / "driver")],
                 implementation=implementation_tag(version), description=description)


def build_c(driver: Driver) -> Built:
    cc = os.environ.get("CC", "cc")
    if not shutil.which(cc.split()[0]):
        return Built(skip=f"no C compiler ({cc})")
    return build_with_make(driver)


def build_rust(driver: Driver) -> Built:
    """The Rust driver: scenarios through starpu-core's safe API (always our runtime)."""
    pc, _, _ = library_env()
    if pc != "starpu-1.4":
        return Built(skip=f"the Rust driver runs our core only (STARPU_PC={pc})")
    proc = run(["cargo", "build", "--release", "-q", "-p", "starpu-conformance-rust"], cwd=REPO)
    if proc.returncode != 0:
        return Built(error=f"building the Rust driver failed:\n{proc.stdout}{proc.stderr}")
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return Built(command=[str(target / "release" / "starpu-conformance-rust")],
                 description="starpu-core's Rust API")


def build_fortran(driver: Driver) -> Built:
    """fstarpu_mod.f90 from the library's prefix and the driver, with gfortran. The driver
    uses our module's extensions (fstarpu_task_insert_ret, fstarpu_task_build, ...: StarPU's
    module cannot set a task's fields nor return these error codes), so it runs on ours."""
    pc, _, _ = library_env()
    if pc != "starpu-1.4":
        return Built(skip=f"the fortran driver needs our fstarpu_mod extensions, not {pc}'s module")
    return build_with_make(driver)


def build_python(driver: Driver) -> Built:
    """The Python face: the installed `starpu` module (`pip install ./bindings/python`),
    run by this interpreter. It exists only on our runtime."""
    check = run([sys.executable, "-c", "import starpu, numpy; print(starpu.__file__)"])
    if check.returncode != 0:
        return Built(error="the starpu Python module (with numpy) cannot be imported: "
                     "`pip install ./bindings/python numpy`\n" + check.stderr)
    return Built(command=[sys.executable, str(driver.src / "driver.py")],
                 implementation="ours",
                 description=f"Python face from {check.stdout.strip()}")


def build_java(driver: Driver) -> Built:
    """The Java driver, compiled against starpu-java.jar (built by Maven when missing)."""
    jar_dir = REPO / "bindings" / "java" / "target"
    jars = sorted(jar_dir.glob("starpu-java-*.jar"))
    build_dir = driver.src / "build"
    build_dir.mkdir(parents=True, exist_ok=True)
    with open(build_dir / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not jars:
            proc = run(["mvn", "-q", "-B", "-ntp", "-DskipTests", "package"],
                       cwd=REPO / "bindings" / "java")
            jars = sorted(jar_dir.glob("starpu-java-*.jar"))
            if proc.returncode != 0 or not jars:
                return Built(error=f"building starpu-java.jar failed:\n{proc.stdout}{proc.stderr}")
        proc = run(["javac", "-Xlint:none", "-d", str(build_dir), "-cp", str(jars[-1]),
                    str(driver.src / "Driver.java")])
    if proc.returncode != 0:
        return Built(error=f"compiling the Java driver failed:\n{proc.stdout}{proc.stderr}")
    classpath = f"{jars[-1]}:{build_dir}"
    return Built(command=["java", "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", classpath,
                          "Driver"], description=f"Java face ({jars[-1].name})")


# The driver table: name -> tools needed, build step (which gives the command). Adding a
# driver is one entry here plus its sources under drivers/<name>/ (README.md, "Adding a
# driver").
DRIVERS = {
    "c": Driver("c", tools=["make", "pkg-config"], build=build_c),
    "rust": Driver("rust", tools=["cargo"], build=build_rust),
    "fortran": Driver("fortran", tools=["make", "pkg-config", "gfortran"], build=build_fortran),
    "python": Driver("python", tools=[], build=build_python),
    "java": Driver("java", tools=["java", "javac", "mvn"], build=build_java),
}

_built = {}


def built(driver: Driver) -> Built:
    """Builds the driver and asks for its capabilities, once per session."""
    if driver.name not in _built:
        missing_tools = [t for t in driver.tools if not shutil.which(t)]
        if missing_tools:
            b = Built(skip=f"{driver.name} driver: missing {', '.join(missing_tools)}")
        else:
            b = driver.build(driver)
            if b.command:
                query_capabilities(driver, b)
        _built[driver.name] = b
    return _built[driver.name]


def query_capabilities(driver: Driver, b: Built):
    with tempfile.TemporaryDirectory(prefix="starpu-conformance-") as home:
        try:
            proc = subprocess.run(b.command + ["--capabilities"], env=driver_env(home, b),
                                  capture_output=True, text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            b.error = f"`{driver.name} driver --capabilities` did not end in {TIMEOUT:.0f} s"
            return
    if proc.returncode != 0:
        b.error = (f"`{driver.name} driver --capabilities` failed (exit status "
                   f"{proc.returncode}):\n{_tail(proc.stderr)}")
        return
    try:
        b.capabilities = parse_capabilities(proc.stdout)
    except ValueError as e:
        b.error = f"`{driver.name} driver --capabilities`: {e}"


# --------------------------------------------------------------------------------------
# Running


@pytest.fixture(scope="session")
def starpu_home():
    with tempfile.TemporaryDirectory(prefix="starpu-conformance-") as d:
        yield d


def driver_env(starpu_home: str, b: Built, opencl: bool = False) -> dict:
    # No STARPU_* variable of the caller may change a scenario (STARPU_SCHED, STARPU_NCPU...).
    env = {k: v for k, v in os.environ.items() if not k.startswith("STARPU_")}
    env.update(b.env)
    env.update(STARPU_HOME=starpu_home, STARPU_SILENT="1", STARPU_WORKERS_NOBIND="1")
    if opencl:
        # A scenario with OpenCL workers (init opencl=K): PoCL, a CPU device, counts only
        # with this set, as in StarPU.
        env.update(STARPU_OPENCL_ON_CPUS="1")
    return env


def _tail(text: str, lines: int = 30) -> str:
    return "\n".join(text.splitlines()[-lines:])


def _text(stream) -> str:
    return stream.decode(errors="replace") if isinstance(stream, bytes) else (stream or "")


class Outcome(Exception):
    """How one scenario went on one driver, when it did not pass: skip or fail."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind  # "skip" | "fail"


def check_scenario(driver_name: str, scenario: Scenario, starpu_home: str, workdir: Path):
    """Runs one scenario on one driver; returns when it passes, raises Outcome otherwise."""
    b = built(DRIVERS[driver_name])
    if b.skip:
        raise Outcome("skip", b.skip)
    if b.error:
        raise Outcome("fail", b.error)
    reason = scenario.divergent.get(b.implementation)
    if reason and os.environ.get("STARPU_CONFORMANCE_RUN_DIVERGENT") != "1":
        raise Outcome("skip", f"diverges on {b.implementation}: {reason}")
    lacking = missing(needs(scenario.plan), b.capabilities)
    if lacking:
        raise Outcome("skip", f"{driver_name} driver cannot express {', '.join(lacking)}")

    plan = workdir / f"{scenario.name}.plan"
    plan.write_text(scenario.plan_text())
    title = f"{scenario.name} [{driver_name}, {b.description}]"
    try:
        opencl = ("device", "opencl") in needs(scenario.plan)
        proc = subprocess.run(b.command + [str(plan)], env=driver_env(starpu_home, b, opencl),
                              capture_output=True, text=True, timeout=scenario.timeout)
    except subprocess.TimeoutExpired as e:
        out, _ = render(parse_output(_text(e.stdout)), scenario.observations)
        err = map_plan_lines(_text(e.stderr), plan, scenario)
        raise Outcome("fail", f"{title}: no end after {scenario.timeout:.0f} s (deadlock?)\n"
                      f"--- output so far\n" + "\n".join(out) +
                      f"\n--- driver stderr (last lines)\n{_tail(err)}") from None

    if proc.returncode == EXIT_UNSUPPORTED:
        why = map_plan_lines(proc.stderr.strip(), plan, scenario, line_words=True)
        raise Outcome("skip", f"{driver_name} driver cannot express this scenario: "
                      f"{why or 'unsupported operation'}")

    actual, problems = render(parse_output(proc.stdout), scenario.observations)
    if actual != scenario.expected:
        diff = difflib.unified_diff(scenario.expected, actual, "expected", "actual",
                                    lineterm="", n=3)
        problems.insert(0, "output differs (- expected, + actual):\n" + "\n".join(diff))
    if proc.returncode == EXIT_SCENARIO_ERROR:
        n = plan_line_of(proc.stderr, plan)
        step = scenario.plan[n - 1] if n and 1 <= n <= len(scenario.plan) else None
        if step is None:
            problems.append("driver: scenario error (no plan line named in its stderr)")
        else:
            expanded = f" (executed as: {step.text})" if step.iteration is not None else ""
            problems.append(f"driver: scenario error at {step.where(scenario.path)}: "
                            f"{scenario.source[step.line - 1].strip()}{expanded}")
    elif proc.returncode < 0:
        problems.append(f"driver killed by signal {-proc.returncode}")
    elif proc.returncode != 0:
        problems.append(f"driver exit status {proc.returncode}")
    if problems:
        stderr = _tail(map_plan_lines(proc.stderr, plan, scenario,
                                      line_words=proc.returncode == EXIT_SCENARIO_ERROR))
        raise Outcome("fail", f"{title}\n" + "\n".join(problems)
                      + f"\n--- driver stderr (last lines)\n{stderr or '(empty)'}"
                      + f"\n--- driver stdout (last lines)\n{_tail(proc.stdout) or '(empty)'}")


@pytest.mark.parametrize("scenario_path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
@pytest.mark.parametrize("driver_name", sorted(DRIVERS))
def test_scenario(driver_name, scenario_path, starpu_home, tmp_path):
    try:
        check_scenario(driver_name, load_scenario(scenario_path, TIMEOUT), starpu_home,
                       tmp_path)
    except ScenarioError as e:
        pytest.fail(str(e), pytrace=False)
    except Outcome as o:
        if o.kind == "skip":
            pytest.skip(str(o))
        pytest.fail(str(o), pytrace=False)


def test_scenarios_exist():
    """The suite must not pass by finding nothing, and every scenario must parse."""
    assert SCENARIOS, "no scenario in tests/conformance/scenarios"
    for path in SCENARIOS:
        scenario = load_scenario(path)
        assert scenario.expected, f"{path.name} expects no output at all"
        text = path.read_text()
        assert text.startswith("#"), f"{path.name} must open with a comment saying what it checks"


def test_c_driver_expresses_every_scenario():
    """The C driver is the reference: a capability it forgets would skip scenarios silently."""
    b = built(DRIVERS["c"])
    if b.skip:
        pytest.skip(b.skip)
    if b.error:
        pytest.fail(b.error, pytrace=False)
    # Except CUDA: C kernels for it need nvcc, which CI has not (the Rust driver, with
    # NVRTC, runs the CUDA scenarios on a GPU: scripts/gpu-check.sh).
    cuda = {("device", "cuda"), ("impl", "cuda")}
    lacking = {p.stem: missing(needs(load_scenario(p).plan) - cuda, b.capabilities)
               for p in SCENARIOS}
    assert not {k: v for k, v in lacking.items() if v}


def test_c_driver_errors_name_the_scenario_line(starpu_home, tmp_path):
    """A plan line the C driver rejects is reported with the scenario's line and repeat
    iteration, not the plan's line."""
    text = ("# a scenario error in the second iteration of a repeat\n"
            "init ncpus=1 sched=eager\n"
            "codelet n noop\n"
            "\n"
            "repeat 3 insert t% n value=%\n"
            "shutdown\n"
            "> nothing\n")
    scenario = parse_scenario(text, tmp_path / "bad_repeat.scn")
    with pytest.raises(Outcome) as raised:
        check_scenario("c", scenario, starpu_home, tmp_path)
    if raised.value.kind == "skip":
        pytest.skip(str(raised.value))
    message = str(raised.value)
    assert "scenario error at bad_repeat.scn:5 (repeat iteration 0): repeat 3 insert" in message
    assert "bad_repeat.scn:5 (repeat iteration 0): scenario error: kernel noop takes 0 values" \
        in message


def test_a_driver_lacking_a_capability_skips_with_the_reason(starpu_home, tmp_path,
                                                             monkeypatch):
    """The C driver, told it lacks the `gate` kernel, skips the scenarios using it, naming
    it, and still runs the others."""
    b = built(DRIVERS["c"])
    if b.skip or b.error:
        pytest.skip(b.skip or b.error)
    lacking = Built(command=b.command, implementation=b.implementation,
                    description=b.description,
                    capabilities=b.capabilities - {("kernel", "gate")})
    monkeypatch.setitem(DRIVERS, "c-nogate", Driver("c-nogate", [], lambda d: lacking))
    monkeypatch.setitem(_built, "c-nogate", lacking)
    with pytest.raises(Outcome) as raised:
        check_scenario("c-nogate", load_scenario(HERE / "scenarios" / "prio_busy_worker.scn"),
                       starpu_home, tmp_path)
    assert raised.value.kind == "skip"
    assert str(raised.value) == "c-nogate driver cannot express kernel gate"
    check_scenario("c-nogate", load_scenario(HERE / "scenarios" / "deps_rw_chain.scn"),
                   starpu_home, tmp_path)
