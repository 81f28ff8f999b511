"""`cikb serve`: a local review page over the same Python API as the CLI.

Pages: companies (and each one's sources and pages), ask (answers whose citations open the
cited chunk), proposals (a table of cells to accept or reject, then apply to a new CSV).
Everything is rendered on the server with Jinja (autoescaped) and plain forms: readable
without JavaScript. Only the token `cikb serve` prints opens it (see :mod:`cikb.web.security`).
"""

from __future__ import annotations

from cikb.web.app import bind, create_app, serve
from cikb.web.security import Guard, new_token

__all__ = ["Guard", "bind", "create_app", "new_token", "serve"]
