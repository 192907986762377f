"""The conformance table: after pytest's own summary, one row per scenario, one column per
driver (pass / FAIL / skip), and a total line per driver.

Each scenario test is tagged at collection with its (driver, scenario) pair in
`user_properties`, which pytest copies into every report (pytest-xdist carries them back
to the controlling process too), so the table is built from the reports alone.
"""

from collections import defaultdict

from conformance import table_lines

KEY = "conformance"

# The worst phase of a test (setup, call, teardown) gives its cell.
_RANK = {"pass": 0, "skip": 1, "FAIL": 2}

_cells = defaultdict(dict)  # scenario -> driver -> "pass" | "skip" | "FAIL"


def pytest_collection_modifyitems(items):
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if "driver_name" in params and "scenario_path" in params:
            item.user_properties.append((KEY, (params["driver_name"],
                                               params["scenario_path"].stem)))


def pytest_runtest_logreport(report):
    tag = dict(report.user_properties).get(KEY)
    if not tag:
        return
    driver, scenario = tag
    if report.failed:
        cell = "FAIL"
    elif report.skipped:
        cell = "skip"
    elif report.when == "call":
        cell = "pass"
    else:
        return  # a setup or teardown that went well says nothing yet
    old = _cells[scenario].get(driver)
    if old is None or _RANK[cell] > _RANK[old]:
        _cells[scenario][driver] = cell


def pytest_terminal_summary(terminalreporter):
    if not _cells:
        return
    terminalreporter.section("conformance: scenario x driver")
    for line in table_lines(_cells):
        terminalreporter.write_line(line)
