"""The crawler process: ``python -m gather._child`` reads a CrawlJob line on stdin and streams Messages as JSON lines.

Scrapy runs on Twisted, whose reactor cannot be restarted, so every crawl gets a
process of its own. Sources that share a host run one after another (politeness is
per domain); sources on different hosts run in parallel in one reactor. When the
parent goes away (even by SIGKILL) this process sees stdin close and exits at once.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import IO

from cikb.gather.reporter import CrawlJob, Message, Send, SourceReporter
from cikb.gather.urls import host_of

from cikb.core.models import SourceRequest

REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"


def host_groups(requests: list[SourceRequest]) -> list[list[int]]:
    """Indices of the sources, grouped so that sources sharing any start host share a group."""
    groups: list[tuple[set[str], list[int]]] = []
    for index, request in enumerate(requests):
        hosts = {host_of(url) for url in request.start_urls}
        touching = [g for g in groups if g[0] & hosts]
        merged = (hosts.union(*(g[0] for g in touching)), sorted([index, *(i for g in touching for i in g[1])]))
        groups = [g for g in groups if g not in touching] + [merged]
    return sorted((indices for _, indices in groups), key=lambda indices: indices[0])


def prepare() -> None:
    """Install the reactor and import Scrapy: the slow part of starting, done before the job arrives."""
    from scrapy.utils.reactor import install_reactor

    install_reactor(REACTOR)
    import cikb.gather.spiders  # noqa: F401
    import scrapy.crawler  # noqa: F401


def run(job: CrawlJob, send: Send) -> None:
    """Crawl every source of ``job`` in this process's reactor (after :func:`prepare`), reporting through ``send``."""
    from scrapy.utils.log import configure_logging

    from cikb.gather.settings import scrapy_settings
    from cikb.gather.spiders import SPIDERS
    from scrapy.crawler import CrawlerRunner
    from twisted.internet import defer, reactor, task

    settings = {**scrapy_settings(job.settings, job.http_cache_dir), "LOG_INSTALL_ROOT_HANDLER": True}
    configure_logging(settings)
    runner = CrawlerRunner(settings)

    @defer.inlineCallbacks
    def run_group(indices: list[int]):  # type: ignore[no-untyped-def]
        wait = job.settings.download_delay
        for turn, index in enumerate(indices):
            if turn:  # a new crawler knows nothing of the last one's requests to this host
                yield task.deferLater(reactor, wait, lambda: None)
            request = job.requests[index]
            reporter = SourceReporter(index, request, send)
            yield runner.crawl(SPIDERS[request.source_type], reporter=reporter)
            wait = max(job.settings.download_delay, reporter.summary.crawl_delay or 0.0)  # robots.txt's, when longer

    done = defer.DeferredList([run_group(group) for group in host_groups(job.requests)], consumeErrors=True)
    done.addBoth(lambda _: reactor.stop())
    reactor.run()


def _exit_when_parent_goes(stdin: IO[str]) -> None:
    stdin.read()  # returns at EOF: the parent closed the pipe or died
    os._exit(3)


def main() -> None:
    # Messages get stdout's pipe to themselves; anything else printing to stdout goes to stderr.
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    prepare()  # the parent starts this process ahead of the job (gather.Crawler)
    line = sys.stdin.readline()
    if not line.strip():
        return  # the parent closed the pipe without a job: nothing to fetch
    job = CrawlJob.model_validate_json(line)
    threading.Thread(target=_exit_when_parent_goes, args=(sys.stdin,), daemon=True).start()

    def send(message: Message) -> None:
        channel.write(message.model_dump_json(exclude_none=True) + "\n")
        channel.flush()

    run(job, send)
    send(Message(done=True))
    channel.close()
    sys.stderr.flush()
    # The crawl's files are written (the HTTP cache writes each entry before its page is sent): the
    # interpreter's teardown of Scrapy and Twisted (~0.3 s, which the parent waits for) does nothing more.
    os._exit(0)


if __name__ == "__main__":
    main()
