"""cikb: a company-intelligence knowledge base.

One import name, three layers, data flowing one way:

- ``cikb.core``: the foundation every stage may import (config, errors, the
  models that cross stage boundaries, slugs, secret masking).
- the stages, in pipeline order: ``cikb.gather`` -> ``cikb.clean`` ->
  ``cikb.chunk`` -> ``cikb.embed`` -> ``cikb.store`` -> ``cikb.retrieve`` ->
  (``cikb.answer`` | ``cikb.enrich``), with ``cikb.prompts`` as files. No stage
  knows the stages after it.
- ``cikb.app``: the application that runs them (the gather pipeline, knowledge
  base maintenance, the LLM client, reading) and ``cikb.cli``, a thin shell over it.

The stage folders live at the repository's top level (the design card's
layout) and are mapped into this package by setuptools' ``package-dir``.
"""

__version__ = "0.1.0"
