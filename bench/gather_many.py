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

    python bench/gather_many.py --queue [--companies N] [--workers W] [--delay SECONDS]

The same sites through the task queue (issue 27): Debian's redis-server on a loopback port,
then one `cikb worker`, then W of them sharing one data directory (the embedded store, each
commit under its lock), each run into a fresh data directory after the workers are ready.
Prints both times and their ratio, each domain's smallest gap between requests as its server
saw them, and the store stage's seconds per company with the workers' waits for the store.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import resource
import shutil
import socket
import subprocess
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
    parser.add_argument("--delay", type=float, default=None, help="politeness delay in seconds (default 0.3; with --queue 1.0)")
    parser.add_argument("--queue", action="store_true", help="one cikb worker against --workers of them, through a task queue")
    parser.add_argument("--workers", type=int, default=3, help="with --queue: workers of the second run (default 3)")
    args = parser.parse_args()
    if args.queue:
        queue_main(args.companies, args.workers, 1.0 if args.delay is None else args.delay)
        return
    args.delay = 0.3 if args.delay is None else args.delay
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


def queue_main(companies: int, worker_count: int, delay: float) -> None:
    from cikb.app.queue import enqueue_gather, follow

    if shutil.which("redis-server") is None:
        sys.exit("redis-server not found: sudo apt-get install -y redis-server")
    with tempfile.TemporaryDirectory(prefix="cikb-bench-queue-") as folder, redis_server(Path(folder)) as url, \
            company_sites.serve_companies(companies) as sites:
        rows = [CompanyRow(n, site.name, {"website": site.url}) for n, site in enumerate(sites, start=1)]
        runs = {}
        for count in (1, worker_count):
            for site in sites:
                site.server.log.clear()
            data_dir = Path(folder) / f"data-{count}"
            settings = Settings(data_dir=data_dir, gather={"download_delay": delay})
            with running_workers(url, count, data_dir) as logs:
                started = time.monotonic()
                results = follow(url, enqueue_gather(settings, url, rows, source="bench"))
                seconds = time.monotonic() - started
            failed = [f"{r.company.name}: {r.error}" for r in results if r.status != "ok"]
            if failed:
                sys.exit("gather failed: " + "; ".join(failed))
            gap = min(b.time - a.time for site in sites for a, b in zip(site.server.log, site.server.log[1:]))
            store = [r.stage_seconds.get("store", 0.0) for r in results]
            waits = sum(text.count("is busy") for text in logs())  # cikb.store: a wait over 1 s for the store's lock
            runs[count] = seconds
            print(f"{count} worker{'s' if count > 1 else ' '}  {seconds:7.2f} s   smallest gap at a server {gap:.3f} s (delay {delay} s); "
                  f"store stage {sum(store) / len(store):.2f} s a company (max {max(store):.2f}); store-lock waits said: {waits}")
    print(f"{companies} companies, one domain each, four pages and four broken links (14 requests), delay {delay} s, one data directory per run")
    print(f"{worker_count} workers against one: {runs[1] / runs[worker_count]:.2f}x faster (target >= 2.5x)")


class redis_server:
    """Debian's redis-server on a free loopback port, nothing saved (a context manager giving its URL)."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.folder = folder

    def __enter__(self) -> str:
        import redis

        self.proc = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                      "--dir", str(self.folder)], stdout=subprocess.DEVNULL)
        url = f"redis://127.0.0.1:{self.port}/0"
        for _ in range(200):
            try:
                redis.Redis.from_url(url).ping()
                return url
            except redis.ConnectionError:
                time.sleep(0.05)
        sys.exit("redis-server did not start")

    def __exit__(self, *exc: object) -> None:
        self.proc.terminate()
        self.proc.wait(10)


class running_workers:
    """``count`` `cikb worker` processes on ``url`` with ``data_dir``, ready; gives a function returning their logs."""

    def __init__(self, url: str, count: int, data_dir: Path) -> None:
        self.url, self.count, self.data_dir = url, count, data_dir

    def __enter__(self):  # noqa: ANN204
        env = {**os.environ, "CIKB_DATA_DIR": str(self.data_dir)}
        self.logs = [self.data_dir.parent / f"{self.data_dir.name}-w{n}.log" for n in range(self.count)]
        self.procs = [subprocess.Popen([sys.executable, "-m", "cikb", "worker", "--queue", self.url, "--name", f"w{n}"], env=env,
                                       stdout=log.open("w"), stderr=subprocess.STDOUT) for n, log in enumerate(self.logs)]
        while not all("ready" in log.read_text() for log in self.logs):
            if any(proc.poll() is not None for proc in self.procs):
                sys.exit("a worker did not start:\n" + "\n".join(log.read_text() for log in self.logs))
            time.sleep(0.1)
        return lambda: [log.read_text() for log in self.logs]

    def __exit__(self, *exc: object) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            proc.wait(60)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


if __name__ == "__main__":
    main()
