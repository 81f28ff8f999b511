"""Gather time against the politeness floor: overlap, the vector cache and conditional requests (issue 11, items 2, 3).

    python bench/gather.py [--delay SECONDS] [--pages N]

Serves the shared letsencrypt.org build (``../shared/corpora/site_letsencrypt``, a real
organisation's site; static files, so every page has a Last-Modified validator) on 127.0.0.1
and runs ``cikb gather ISRG --website URL --json`` as a user does, each in a fresh process:

1. before: ``[gather] overlap = false`` and ``--full`` into an empty data directory: the crawl
   first, then clean, chunk and embed every page (the gather before issue 11);
2. first gather: the default (pages cleaned, chunked and embedded as they arrive) into an
   empty data directory;
3. re-gather, unchanged: the same data directory again (vector cache, conditional requests);
4. re-gather --max-age 1d, three times: the same data directory; every page was fetched live within a
   day, so each is taken from the HTTP cache without a request, its cleaned document from the current
   generation, its vectors from the cache, and nothing is written (issue 25, item 4). The median of the
   three is reported: on a machine shared with other work one run can take twice another;
5. re-gather --full: the same data directory, both caches ignored (a re-gather before issue 11,
   overlap aside).

The floor is what politeness alone costs: pages delivered (fetched, or taken from the cache) x delay. Every request the server
answers (robots.txt, 404s and non-HTML included) is one delay apart from the next, so
"request floor" is (requests - 1) x delay. Seconds are wall clock of the whole command
(process start and model load included; "in-gather" is the summary's own, from the gather's
start to its commit, without the command's start-up); the ratios compare runs of this one invocation.
Peak RSS is the largest process of a run (the gather or its crawler child).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT.parent / "shared" / "corpora" / "site_letsencrypt"


class CountingHandler(SimpleHTTPRequestHandler):
    """Static files (Last-Modified, If-Modified-Since -> 304), counting every answer's status."""

    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def send_response(self, code: int, message: str | None = None) -> None:
        with self.lock:
            self.statuses[code] += 1
        super().send_response(code, message)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
        pass


def serve(directory: Path) -> tuple[ThreadingHTTPServer, str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(CountingHandler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def run_gather(label: str, url: str, data_dir: Path, delay: float, pages: int, *, overlap: bool = True, full: bool = False,
               max_age: str | None = None) -> dict:
    """One `cikb gather` in a fresh process: its summary, wall seconds, peak RSS and what the server answered."""
    env = {**os.environ, "CIKB_DATA_DIR": str(data_dir), "CIKB_GATHER__OVERLAP": str(overlap).lower()}
    command = [sys.executable, "-m", "cikb", "gather", "ISRG", "--website", url + "/", "--delay", str(delay), "--max-pages", str(pages), "--json"]
    CountingHandler.statuses.clear()
    started = time.monotonic()
    child = subprocess.Popen([*command, *(["--full"] if full else []), *(["--max-age", max_age] if max_age else [])], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    stdout = child.stdout.read() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{label}: cikb gather failed (exit {os.waitstatus_to_exitcode(status)})")
    summary = json.loads(stdout)
    fetched = sum(s["fetched"] for s in summary["sources"])
    cached = sum(s["cached"] for s in summary["sources"])
    requests = sum(CountingHandler.statuses.values())
    return {
        "run": label, "seconds": seconds, "gather_s": summary["seconds"], "fetched": fetched, "cached": cached, "requests": requests,
        "not_modified": CountingHandler.statuses[304], "floor": (fetched + cached) * delay, "request_floor": max(requests - 1, 0) * delay, "peak_rss_mb": usage.ru_maxrss / 1024,
        "chunks": summary["chunks"], "embedded": summary["embedded"], "reused": summary["reused"], "stages": summary["stage_seconds"],
        "written": (summary.get("changes") or {}).get("written", True),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--delay", type=float, default=1.0, help="politeness delay in seconds (default 1.0, the product's)")
    parser.add_argument("--pages", type=int, default=20, help="pages per source (default 20, the product's)")
    args = parser.parse_args()
    server, url = serve(SITE)
    try:
        with tempfile.TemporaryDirectory() as before_dir, tempfile.TemporaryDirectory() as data_dir:
            runs = [
                run_gather("before (no overlap, no cache)", url, Path(before_dir), args.delay, args.pages, overlap=False, full=True),
                run_gather("first gather", url, Path(data_dir), args.delay, args.pages),
                run_gather("re-gather, unchanged", url, Path(data_dir), args.delay, args.pages),
                *(run_gather(f"re-gather --max-age 1d ({n})", url, Path(data_dir), args.delay, args.pages, max_age="1d") for n in (1, 2, 3)),
                run_gather("re-gather --full", url, Path(data_dir), args.delay, args.pages, full=True),
            ]
    finally:
        server.shutdown()
        server.server_close()
    print(f"letsencrypt.org build, website source, {args.pages} pages at most, delay {args.delay} s; seconds are wall clock of `cikb gather`")
    print(f"\n{'run':<30} {'seconds':>8} {'in-gather':>9} {'pages':>5} {'cached':>6} {'floor':>6} {'x floor':>8} {'requests':>8} {'x req floor':>11} {'304s':>5} "
          f"{'chunks':>6} {'embedded':>8} {'reused':>6} {'written':>7} {'x before':>8} {'peak RSS MB':>11}")
    base = runs[0]["seconds"]
    for r in runs:
        req_ratio = f"{r['seconds'] / r['request_floor']:11.2f}" if r["request_floor"] else f"{'-':>11}"
        print(f"{r['run']:<30} {r['seconds']:8.1f} {r['gather_s']:9.1f} {r['fetched']:5d} {r['cached']:6d} {r['floor']:6.1f} {r['seconds'] / r['floor']:8.2f} "
              f"{r['requests']:8d} {req_ratio} {r['not_modified']:5d} {r['chunks']:6d} {r['embedded']:8d} {r['reused']:6d} "
              f"{'yes' if r['written'] else 'no':>7} {r['seconds'] / base:8.2f} {r['peak_rss_mb']:11.0f}")
    unchanged, fresh = runs[2], sorted(runs[3:6], key=lambda r: r["gather_s"])[1]  # the median --max-age run
    print(f"\n--max-age 1d re-gather (median of 3): {fresh['requests']} requests, {fresh['cached']} pages from the cache; {fresh['gather_s']:.2f} s in-gather = "
          f"{fresh['gather_s'] / fresh['floor']:.3f}x the floor ({fresh['floor']:.0f} s), "
          f"{fresh['gather_s'] / max(unchanged['request_floor'], 1e-9):.3f}x the unchanged re-gather's request floor ({unchanged['request_floor']:.0f} s); "
          f"{fresh['seconds']:.1f} s wall clock with start-up = {fresh['seconds'] / fresh['floor']:.2f}x the floor")
    print("\nseconds by stage (crawl: wall clock; clean, chunk, embed: work done, overlapping the crawl unless 'before'; store: staging + commit)")
    for r in runs:
        print(f"  {r['run']:<30} " + "  ".join(f"{stage} {seconds:.1f}" for stage, seconds in r["stages"].items()))


if __name__ == "__main__":
    main()
