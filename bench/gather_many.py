"""Many companies at once against one after another: `cikb gather --from-csv` (issue 11, item 4).

    python bench/gather_many.py [--companies N] [--parallel P] [--delay SECONDS]

1. Serves N small company sites (four pages and four broken links each, tests/company_sites.py) on
   127.0.0.2, 127.0.0.3, ... one domain per company.
2. Gathers them all with :func:`cikb.app.batch.gather_many`, first one at a time
   (``max_parallel_companies = 1``), then P at once, each run into a fresh data directory,
   after one unmeasured warm-up gather (disk cache, model files).
3. Prints both times, the slowest domain's politeness floor (its first to its last request,
   as the server saw them: no gather of it can be shorter) and the sum of the floors (no
   one-at-a-time run can be shorter), as ratios measured in the same run, and peak memory.
"""

from __future__ import annotations

import argparse
import importlib
import math
import resource
import sys
import tempfile
import time
from pathlib import Path

from cikb.app.batch import CompanyRow, gather_many
from cikb.core.config import Settings

ROOT = Path(__file__).resolve().parents[1]
# The loopback company sites the tests serve (tests/company_sites.py): test helpers, not a dependency.
sys.path.insert(0, str(ROOT / "tests"))
company_sites = importlib.import_module("company_sites")


def run(sites: list, parallel: int, delay: float) -> tuple[float, list[float]]:
    """Seconds to gather every site with ``parallel`` at once, and each site's floor (first to last request)."""
    for site in sites:
        site.server.log.clear()
    rows = [CompanyRow(n, site.name, {"website": site.url}) for n, site in enumerate(sites, start=1)]
    with tempfile.TemporaryDirectory(prefix="cikb-bench-") as data_dir:
        settings = Settings(data_dir=Path(data_dir), gather={"download_delay": delay, "max_parallel_companies": parallel})
        started = time.monotonic()
        results = gather_many(settings, rows)
        seconds = time.monotonic() - started
    failed = [f"{r.company.name}: {r.error}" for r in results if r.status != "ok"]
    if failed:
        sys.exit("gather failed: " + "; ".join(failed))
    floors = [site.server.log[-1].time - site.server.log[0].time for site in sites]
    return seconds, floors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--companies", type=int, default=8, help="company sites to serve (default 8)")
    parser.add_argument("--parallel", type=int, default=Settings().gather.max_parallel_companies, help="companies at once (default: the setting's default)")
    parser.add_argument("--delay", type=float, default=0.3, help="politeness delay in seconds (default 0.3)")
    args = parser.parse_args()
    with company_sites.serve_companies(args.companies + 1) as all_sites:
        warm_up, sites = all_sites[:1], all_sites[1:]
        run(warm_up, 1, args.delay)
        sequential, floors = run(sites, 1, args.delay)
        sequential_rss = peak_rss_mb()
        parallel, parallel_floors = run(sites, args.parallel, args.delay)
    slowest = max(floors + parallel_floors)
    rounds = math.ceil(len(sites) / args.parallel)
    print(f"{len(sites)} companies, one domain each, four pages and four broken links, delay {args.delay} s; {args.parallel} at once")
    print(f"slowest domain's floor     {slowest:7.2f} s")
    print(f"sum of the floors          {sum(floors):7.2f} s   (no one-at-a-time run is shorter)")
    print(f"one at a time              {sequential:7.2f} s   {sequential / slowest:5.1f}x the slowest floor")
    print(f"{args.parallel} at once                  {parallel:7.2f} s   {parallel / slowest:5.1f}x the slowest floor "
          f"({parallel / (rounds * slowest):.2f}x ceil(N/P) x it), {sequential / parallel:.2f}x faster than one at a time")
    print(f"peak RSS of this process (the crawler children apart): {sequential_rss:.0f} MB one at a time, {peak_rss_mb():.0f} MB after {args.parallel} at once")


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


if __name__ == "__main__":
    main()
