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

    python bench/gather_many.py --queue --check [--companies 30] [--delay 0.3]

Issue 27's acceptance run: the sites plus two companies sharing the first two hosts, through
three workers, one of them SIGKILLed mid-gather once six companies are done, against a local
``--from-csv`` run of the same rows: every company once in the store, the smallest gap and the
robots.txt requests per host, and whether files, chunk ids and vectors are the local run's.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import resource
import shutil
import signal
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
    parser.add_argument("--check", action="store_true", help="with --queue: the acceptance run (a worker killed, compared with a local run)")
    args = parser.parse_args()
    if args.queue and args.check:
        queue_check(args.companies, 0.3 if args.delay is None else args.delay)
        return
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


def queue_check(companies: int, delay: float) -> None:
    import numpy as np

    from cikb.app.queue import JobBoard, connect, enqueue_gather, follow
    from cikb.store import open_store

    with tempfile.TemporaryDirectory(prefix="cikb-bench-check-") as folder, redis_server(Path(folder)) as url, \
            company_sites.serve_companies(companies) as sites:
        rows = [CompanyRow(n, site.name, {"website": site.url}) for n, site in enumerate(sites, start=1)]
        rows += [CompanyRow(len(rows) + 1, "Sister Co", {"website": sites[0].url + "about/"}),
                 CompanyRow(len(rows) + 2, "Twin Co", {"website": sites[1].url + "team/"})]
        queued = Settings(data_dir=Path(folder) / "queued", gather={"download_delay": delay})
        with running_workers(url, 3, queued.data_dir, CIKB_QUEUE__VISIBILITY_TIMEOUT="30") as workers:
            started = time.monotonic()
            board = JobBoard(connect(url), enqueue_gather(queued, url, rows, source="check"))
            while not (crawling := [(n, p["worker"]) for n, p in board.progress().items()
                                    if p.get("pages", 0) >= 1 and not board.finished(n)]) or len(board.results(list(range(1, len(rows) + 1)))) < 6:
                time.sleep(0.05)
            row, victim = crawling[0]
            workers.kill(victim)
            print(f"SIGKILLed {victim} gathering row {row} at {time.monotonic() - started:.1f} s")
            results = follow(url, board.id)
            print(f"through the queue: {len(results)} rows in {time.monotonic() - started:.1f} s, {sum(r.status == 'ok' for r in results)} ok; "
                  f"row {row} gathered again by {board.progress()[row]['worker']}")
        logs = [list(site.server.log) for site in sites]
        print(f"smallest gap at a server {min(b.time - a.time for log in logs for a, b in zip(log, log[1:])):.3f} s (delay {delay} s); "
              f"robots.txt requests per host: {sorted({[e.path for e in log].count('/robots.txt') for log in logs})}")
        local = Settings(data_dir=Path(folder) / "local", gather={"download_delay": delay})
        started = time.monotonic()
        local_results = gather_many(local, rows)
        local_logs = [site.server.log[len(log):] for site, log in zip(sites, logs)]
        local_gap = min(b.time - a.time for log in local_logs for a, b in zip(log, log[1:]))
        print(f"local --from-csv ({local.gather.max_parallel_companies} at once): {time.monotonic() - started:.1f} s, "
              f"{sum(r.status == 'ok' for r in local_results)} ok; smallest gap at a server {local_gap:.3f} s (Scrapy's own delay alone)")
        with open_store(queued) as store:
            counts = {slug: store.count(slug) for slug in store.companies()}
        print(f"in the store once each: {counts == {r.company.slug: r.chunks for r in results}} ({len(counts)} companies)")
        same = sum(_same(queued, local, r.company.slug, np) for r in results)
        print(f"the same files, chunk ids and vectors as the local run: {same} of {len(results)}")


def _same(a: Settings, b: Settings, slug: str, np) -> bool:  # noqa: ANN001
    one, other = _snapshot(a, slug), _snapshot(b, slug)
    return (one[0], one[1]) == (other[0], other[1]) and one[2].keys() == other[2].keys() and all(
        np.allclose(one[2][k][0], v[0], atol=1e-6) and one[2][k][1:] == v[1:] for k, v in other[2].items())


def _snapshot(settings: Settings, slug: str) -> tuple:
    """Raw files (scraped_at aside), chunk ids, and each point's vector, sparse vector and text."""
    from cikb.app.indexing import load_index
    from cikb.app.workspace import CompanyDir
    from cikb.store import open_store

    company = CompanyDir(settings.data_dir, slug)
    files = {p.name: [line for line in p.read_text().splitlines() if not line.startswith("scraped_at: ")] for p in company.raw_link.glob("*.md")}
    ids = [c.id for c in load_index(company.current()).chunks]
    with open_store(settings) as store:
        points = {p.chunk.id: (p.dense, p.sparse.model_dump(), p.chunk.text) for p in store.points(ids)}
    return files, ids, points


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

    def __init__(self, url: str, count: int, data_dir: Path, **env: str) -> None:
        self.url, self.count, self.data_dir, self.env = url, count, data_dir, env

    def __enter__(self) -> running_workers:
        env = {**os.environ, **self.env, "CIKB_DATA_DIR": str(self.data_dir)}
        self.logs = [self.data_dir.parent / f"{self.data_dir.name}-w{n}.log" for n in range(self.count)]
        self.procs = {f"w{n}": subprocess.Popen([sys.executable, "-m", "cikb", "worker", "--queue", self.url, "--name", f"w{n}"], env=env,
                                                stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)
                      for n, log in enumerate(self.logs)}
        while not all("ready" in text for text in self()):
            if any(proc.poll() is not None for proc in self.procs.values()):
                sys.exit("a worker did not start:\n" + "\n".join(self()))
            time.sleep(0.1)
        return self

    def __call__(self) -> list[str]:
        """The workers' output so far."""
        return [log.read_text() for log in self.logs]

    def kill(self, name: str) -> None:
        """SIGKILL a worker and its crawler."""
        os.killpg(self.procs[name].pid, signal.SIGKILL)
        self.procs[name].wait(10)

    def __exit__(self, *exc: object) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs.values():
            proc.wait(60)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


if __name__ == "__main__":
    main()
