"""The shared conformance suite: every scenario through every driver.

One test per (driver, scenario): the driver executes scenarios/<name>.scn through its
language's StarPU API and its stdout must equal the scenario's `>` lines. The format and
the environment variables are described in README.md next to this file.

    python3 -m pytest tests/conformance                        # ours (STARPU_PREFIX)
    STARPU_PC=starpu-1.3 python3 -m pytest tests/conformance    # Debian's StarPU 1.3
"""

import difflib
import fcntl
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SCENARIOS = sorted((HERE / "scenarios").glob("*.scn"))
TIMEOUT = float(os.environ.get("STARPU_CONFORMANCE_TIMEOUT", "120"))

# Exit status a driver uses when its language face cannot express an operation.
EXIT_UNSUPPORTED = 77


# --------------------------------------------------------------------------------------
# Scenarios


@dataclass
class Scenario:
    path: Path
    expected: list  # the `>` lines, in order
    divergent: dict  # implementation tag -> reason
    timeout: float

    @property
    def name(self) -> str:
        return self.path.stem


def load_scenario(path: Path) -> Scenario:
    expected, divergent, timeout = [], {}, TIMEOUT
    for lineno, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if line.startswith(">"):
            # "> text": the text after one blank; a bare ">" is an empty line.
            expected.append(line[2:].rstrip() if line.startswith("> ") else line[1:].rstrip())
        elif line.startswith("@divergent"):
            m = re.match(r"@divergent\s+(\S+?):\s*(.*)$", line)
            if not m:
                raise ValueError(f"{path}:{lineno}: expected '@divergent TAG: reason'")
            divergent[m.group(1)] = m.group(2)
        elif line.startswith("@timeout"):
            timeout = max(timeout, float(line.split()[1]))
        elif line.startswith("@"):
            raise ValueError(f"{path}:{lineno}: unknown metadata line {line!r}")
    return Scenario(path, expected, divergent, timeout)


# --------------------------------------------------------------------------------------
# Drivers


@dataclass
class Built:
    """The outcome of building a driver once per session."""

    command: Optional[list] = None  # argv prefix; the scenario path is appended
    implementation: str = "ours"  # tag matched against @divergent lines
    description: str = ""  # what it runs against, for messages
    skip: Optional[str] = None  # toolchain missing: skip with this reason
    error: Optional[str] = None  # build failed: every test of this driver fails


@dataclass
class Driver:
    name: str
    tools: list  # programs that must be on PATH, else the driver is skipped
    build: Callable[["Driver"], Built]


def run(cmd, env=None, cwd=None):
    return subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)


def _c_library_env():
    """PKG_CONFIG_PATH for the library STARPU_PC names (see README.md)."""
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


def build_c(driver: Driver) -> Built:
    pc, prefix, env = _c_library_env()
    cc = os.environ.get("CC", "cc")
    if not shutil.which(cc.split()[0]):
        return Built(skip=f"no C compiler ({cc})")
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
    src = HERE / "drivers" / "c"
    build_dir = src / "build" / pc
    build_dir.mkdir(parents=True, exist_ok=True)
    # One build at a time (pytest-xdist workers share the build folder).
    with open(build_dir.parent / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        proc = run(["make", "-s", f"STARPU_PC={pc}", f"BUILD={build_dir}"], env=env, cwd=src)
    description = f"{pc} {version} from {libdir}"
    if proc.returncode != 0:
        return Built(error=f"building the C driver against {description} failed:\n"
                     f"{proc.stdout}{proc.stderr}")
    return Built(command=[str(build_dir / "driver")],
                 implementation=implementation_tag(version), description=description)


# The driver table: name -> tools needed, build step (which gives the command).
# Python, Java and Fortran drivers will be added here.
DRIVERS = {
    "c": Driver("c", tools=["make", "pkg-config"], build=build_c),
}

_built = {}


def built(driver: Driver) -> Built:
    if driver.name not in _built:
        missing = [t for t in driver.tools if not shutil.which(t)]
        if missing:
            _built[driver.name] = Built(skip=f"{driver.name} driver: missing {', '.join(missing)}")
        else:
            _built[driver.name] = driver.build(driver)
    return _built[driver.name]


# --------------------------------------------------------------------------------------
# Running


@pytest.fixture(scope="session")
def starpu_home():
    with tempfile.TemporaryDirectory(prefix="starpu-conformance-") as d:
        yield d


def driver_env(starpu_home: str) -> dict:
    # No STARPU_* variable of the caller may change a scenario (STARPU_SCHED, STARPU_NCPU...).
    env = {k: v for k, v in os.environ.items() if not k.startswith("STARPU_")}
    env.update(STARPU_HOME=starpu_home, STARPU_SILENT="1", STARPU_WORKERS_NOBIND="1")
    return env


def _tail(text: str, lines: int = 30) -> str:
    return "\n".join(text.splitlines()[-lines:])


@pytest.mark.parametrize("scenario_path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
@pytest.mark.parametrize("driver_name", sorted(DRIVERS))
def test_scenario(driver_name, scenario_path, starpu_home):
    scenario = load_scenario(scenario_path)
    b = built(DRIVERS[driver_name])
    if b.skip:
        pytest.skip(b.skip)
    if b.error:
        pytest.fail(b.error, pytrace=False)
    reason = scenario.divergent.get(b.implementation)
    if reason and os.environ.get("STARPU_CONFORMANCE_RUN_DIVERGENT") != "1":
        pytest.skip(f"diverges on {b.implementation}: {reason}")

    cmd = b.command + [str(scenario.path)]
    try:
        proc = subprocess.run(cmd, env=driver_env(starpu_home), capture_output=True,
                              text=True, timeout=scenario.timeout)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        pytest.fail(f"{scenario.name} [{driver_name}, {b.description}]: no end after "
                    f"{scenario.timeout:.0f} s (deadlock?)\n--- stdout so far\n{out}"
                    f"--- stderr\n{_tail(err)}", pytrace=False)

    if proc.returncode == EXIT_UNSUPPORTED:
        pytest.skip(f"{driver_name} driver cannot express this scenario: "
                    f"{proc.stderr.strip() or 'unsupported operation'}")

    actual = [line.rstrip() for line in proc.stdout.splitlines()]
    problems = []
    if actual != scenario.expected:
        diff = difflib.unified_diff(scenario.expected, actual, "expected", "actual",
                                    lineterm="", n=3)
        problems.append("output differs (- expected, + actual):\n" + "\n".join(diff))
    if proc.returncode != 0:
        what = (f"killed by signal {-proc.returncode}" if proc.returncode < 0
                else "scenario error" if proc.returncode == 2
                else f"exit status {proc.returncode}")
        problems.append(f"driver {what}")
    if problems:
        stderr = _tail(proc.stderr)
        pytest.fail(f"{scenario.name} [{driver_name}, {b.description}]\n"
                    + "\n".join(problems)
                    + (f"\n--- driver stderr (last lines)\n{stderr}" if stderr else ""),
                    pytrace=False)


def test_scenarios_exist():
    """The suite must not pass by finding nothing."""
    assert SCENARIOS, "no scenario in tests/conformance/scenarios"
    for path in SCENARIOS:
        scenario = load_scenario(path)
        assert scenario.expected, f"{path.name} expects no output at all"
        text = path.read_text()
        assert text.startswith("#"), f"{path.name} must open with a comment saying what it checks"
