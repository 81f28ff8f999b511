"""Deterministic language identification with langdetect (spec C3).

langdetect samples n-grams at random; with an unseeded generator the same
text can come out as two languages on two runs. Each detector here is seeded
with 0, so a text always gets the same answer, whatever was detected before.
The profiles load once per process (about a second), on first use, from a
private factory: nothing global in langdetect is changed.
"""

from __future__ import annotations

import re
import threading

from langdetect.detector_factory import PROFILES_DIRECTORY, DetectorFactory
from langdetect.lang_detect_exception import LangDetectException

SEED = 0
UNKNOWN = "unknown"

# Paths and addresses say nothing about the language around them: langdetect
# drops full URLs itself, but a list of root-relative links ("/de/standorte/")
# would read as German to it.
_URLISH = re.compile(r"\S*[/@]\S*")

_factory: DetectorFactory | None = None
_factory_lock = threading.Lock()


def _load_factory() -> DetectorFactory:
    global _factory
    with _factory_lock:
        if _factory is None:
            factory = DetectorFactory()
            factory.load_profile(PROFILES_DIRECTORY)
            factory.seed = SEED
            _factory = factory
    return _factory


def detect_language(text: str) -> str:
    """The langdetect code of ``text`` (``en``, ``de``, ``zh-cn`` ...), or ``unknown``.

    langdetect reads the first 10,000 characters; ``unknown`` means the text
    had no letters to go by.
    """
    detector = _load_factory().create()
    detector.append(_URLISH.sub(" ", text))
    try:
        return detector.detect()
    except LangDetectException:
        return UNKNOWN
