"""`cikb serve`: a local review page over the same Python API as the CLI.

Pages: companies (each one's sources, changes, facts document and documents, a document with
its chunks), ask (answers whose citations open the cited chunk), search (chunks and the
retriever's trace), jobs (updated in place while one runs), proposals (a table of cells to
accept or reject, then apply to a new CSV and download). Everything is rendered on the server
with Jinja (autoescaped) and plain forms: readable without JavaScript; the one script, htmx,
only updates the jobs pages in place. Only the token `cikb serve` prints opens it (see :mod:`cikb.web.security`).
"""

from __future__ import annotations

from cikb.web.app import bind, create_app, serve
from cikb.web.security import Guard, new_token

__all__ = ["Guard", "bind", "create_app", "new_token", "serve"]
