"""The README's first program runs as written (in a fresh interpreter: it starts and
stops the runtime itself)."""

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_program_runs():
    text = README.read_text()
    program = re.search(r"## A first program\n\n```python\n(.*?)```", text, re.S).group(1)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
