"""Peak memory of enrichment on a big table (issue 12, item 10): rows stream, so memory does not grow with the table.

    python bench/enrich_memory.py [--mb 50] [--keep DIR]

Writes a CSV of about ``--mb`` megabytes (a company, a price, a quantity and a paragraph of
notes per row; seeded, so every run writes the same file), then runs as a user would, each in
its own process whose peak resident memory (``ru_maxrss``) is read when it exits:

1. ``cikb enrich`` (computation ``{Price} * {Quantity}``): a job, every row written to the jobs
   database as it finishes, the proposal streamed from there;
2. ``cikb review`` of that proposal, as a table and as ``--json`` (both to /dev/null);
3. ``cikb apply`` of that proposal to the table.

Target: each under 500 MB, whatever the table's size.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_MB = 500
WORDS = ("market customers revenue growth product service platform team office region partner contract "
         "pricing support quarter annual report strategy launch expansion supplier logistics software").split()


def write_table(path: Path, megabytes: float) -> int:
    """A CSV of about ``megabytes`` MB; returns its number of rows."""
    rng = random.Random(12)
    rows, size, limit = 0, 0, megabytes * 1_000_000
    with path.open("w", encoding="utf-8", newline="") as handle:
        handle.write("Company,Price,Quantity,Notes\n")
        while size < limit:
            notes = " ".join(rng.choice(WORDS) for _ in range(130))
            line = f'Company {rows},{rng.randint(1, 99_999) / 100},{rng.randint(0, 500)},"{notes}"\n'
            handle.write(line)
            size += len(line)
            rows += 1
    return rows


def measure(args: list[str], data_dir: Path, config: Path, stdout=subprocess.DEVNULL) -> tuple[float, float, int]:
    """Run ``cikb args`` in its own process: (peak RSS in MB, seconds, exit code)."""
    env = {**os.environ, "CIKB_CONFIG": str(config)}
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "cikb", "--data-dir", str(data_dir), *args], env=env,
                               stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    err = process.stderr.read().decode(errors="replace") if process.stderr else ""
    if process.returncode != 0:
        print(f"cikb {' '.join(args)} failed ({process.returncode}): {err[-600:]}", file=sys.stderr)
    return usage.ru_maxrss / 1024, time.perf_counter() - started, process.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=50, help="Size of the table in MB (default 50).")
    parser.add_argument("--keep", type=Path, help="Work in this folder and keep it (default: a temporary one).")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="cikb-bench-memory-"))
    work.mkdir(parents=True, exist_ok=True)
    table, proposal, data = work / "big.csv", work / "big.total.proposal.json", work / "data"
    rows = write_table(table, args.mb)
    config = work / "cikb.toml"  # defaults: never the caller's ./cikb.toml
    config.write_text("", encoding="utf-8")
    print(f"table: {table.stat().st_size / 1e6:.1f} MB, {rows} rows ({work})")

    results = []
    enrich = ["enrich", str(table), "--column", "Total", "--strategy", "computation", "--formula", "{Price} * {Quantity}",
              "--type", "number", "--out", str(proposal)]
    results.append(("cikb enrich (computation)", *measure(enrich, data, config)))
    print(f"proposal: {proposal.stat().st_size / 1e6:.1f} MB" if proposal.exists() else "proposal: not written")
    results.append(("cikb review (table)", *measure(["review", str(proposal)], data, config)))
    results.append(("cikb review --json", *measure(["review", str(proposal), "--json"], data, config)))
    results.append(("cikb apply", *measure(["apply", str(proposal), str(table), "--out", str(work / "big.enriched.csv")], data, config)))

    print(f"\n{'command':<28}{'peak RSS':>12}{'seconds':>10}{'exit':>6}")
    for name, peak, seconds, code in results:
        print(f"{name:<28}{peak:>9.0f} MB{seconds:>10.1f}{code:>6}")
    bounded = all(peak < TARGET_MB and code == 0 for _, peak, _, code in results)
    print(f"\ntarget every command < {TARGET_MB} MB: {'met' if bounded else 'NOT met'}")


if __name__ == "__main__":
    main()
