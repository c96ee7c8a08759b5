#!/usr/bin/env python3
"""Writes each bash `run:` step of the given GitHub workflows to OUT_DIR/NN.sh for shellcheck.

Steps with `shell: pwsh` (or any other non-bash shell) are left out; a step without `shell:`
runs in bash on Linux and macOS runners (and in pwsh on Windows ones unless the job says
otherwise, so Windows jobs' steps need `shell: bash` to be taken). ${{ expr }} becomes
"$GITHUB_EXPR", a variable shellcheck treats as any other.

  workflow_steps.py OUT_DIR WORKFLOW...
"""

import re
import sys
from pathlib import Path

import yaml


def main():
    out = Path(sys.argv[1])
    count = 0
    for workflow in sys.argv[2:]:
        with open(workflow, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
        for job_name, job in (doc.get("jobs") or {}).items():
            runner = str(job.get("runs-on", ""))
            default_shell = ((job.get("defaults") or {}).get("run") or {}).get("shell")
            for index, step in enumerate(job.get("steps") or []):
                if "run" not in step:
                    continue
                shell = step.get("shell") or default_shell or ("pwsh" if "windows" in runner else "bash")
                if shell != "bash":
                    continue
                script = re.sub(r"\$\{\{.*?\}\}", '"$GITHUB_EXPR"', step["run"])
                name = step.get("name") or f"step {index + 1}"
                count += 1
                path = out / f"{count:02d}.sh"
                path.write_text(f"# {Path(workflow).name}: {job_name}: {name}\n{script}", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
