"""Imported at start-up by every Python process a test starts (``isolated_env`` in tests/conftest.py puts this
folder on PYTHONPATH): the commands the tests run see no PyTorch, as in the default install.

The test venv has PyTorch for the sentence-transformers tests, which run in the pytest process. Were it visible,
spaCy's thinc would import it in every ``cikb ask`` and ``cikb search`` a test starts: about 2.5 s and 170 MB
each, and nothing in those commands uses it.
"""

import sys

sys.modules.setdefault("torch", None)  # `import torch` raises ImportError; importlib.util.find_spec("torch") is None
