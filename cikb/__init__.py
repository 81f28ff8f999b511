"""cikb: a company-intelligence knowledge base.

The stages are top-level packages that read top to bottom:
gather -> clean -> chunk -> embed -> store -> retrieve -> (answer | enrich).
This package holds what they share: the config (`cikb.config`), the data
models (`cikb.models`), the pipeline that runs them (`cikb.pipeline`) and the
CLI (`cikb.cli`), a thin shell over that API.
"""

__version__ = "0.1.0"

from cikb import _stdlib_shadow

_stdlib_shadow.install()
