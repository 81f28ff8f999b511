"""`cikb models`: the configured dense model, what this machine has of it, and what the knowledge base holds.

    report = models_report(settings)      # nothing is downloaded, no model is loaded
    report.advice                         # what to run: `cikb models pull`, `cikb rebuild --all`

The model in use is the one a gather would load now: the configured model when its files are
on this machine, else the packaged all-MiniLM-L6-v2 (``embed.offline_fallback``). The knowledge
base's model is the one its collection records; when it is another, the advice names
`cikb rebuild --all`, with the store's own words (:func:`cikb.store.model_mismatch`).
"""

from __future__ import annotations

from pydantic import BaseModel

from cikb.embed import (
    OFFLINE_MODEL, ModelFiles, ModelUnavailableError, installed_model, model_spec, packaged_offline_model, pick_backend, pull_refusal,
)
from cikb.embed.resolve import Backend
from cikb.store import model_mismatch, open_store

from cikb.app.workspace import list_companies
from cikb.core.config import EmbedSettings, Settings
from cikb.core.errors import access_checked
from cikb.core.models import ModelInfo

PULL = "cikb models pull"


class ModelFilesInfo(BaseModel):
    """One model's files on this machine."""

    name: str
    variant: str
    source: str
    directory: str

    @classmethod
    def of(cls, files: ModelFiles) -> ModelFilesInfo:
        return cls(name=files.spec.name, variant=files.variant, source=files.source, directory=str(files.directory))

    def line(self) -> str:
        return f"{self.name} ({self.variant}, from {self.source}: {self.directory})"


class ModelsReport(BaseModel):
    configured: str
    backend: str
    installed: ModelFilesInfo | None = None
    """The configured model's files, when this machine has them."""
    missing: str | None = None
    """Why the configured model cannot be loaded from this machine (every place tried)."""
    packaged: ModelFilesInfo | None = None
    """The packaged fallback, all-MiniLM-L6-v2."""
    in_use: ModelInfo | None = None
    """What a gather would embed with now; None when nothing can be loaded."""
    fallback: bool = False
    knowledge_base: ModelInfo | None = None
    """What the stored vectors were embedded with; None while the store holds none."""
    companies: int = 0
    """Companies gathered (their raw documents), whether or not the store holds their vectors."""
    advice: list[str] = []


def models_report(settings: Settings) -> ModelsReport:
    """The configured model, the models on this machine, the model in use and the knowledge base's; never downloads or loads."""
    embed = settings.embed
    backend = pick_backend(embed)
    packaged = _packaged(embed, backend)
    configured, missing = _configured(embed, packaged)
    in_use = configured or (packaged if embed.offline_fallback else None)
    companies, knowledge_base = _knowledge_base(settings)
    report = ModelsReport(
        configured=embed.model, backend=backend, installed=_files_info(configured), missing=missing, packaged=_files_info(packaged),
        in_use=in_use.spec.info(backend, in_use.variant) if in_use else None, fallback=in_use is not None and configured is None,
        knowledge_base=knowledge_base, companies=companies,
    )
    report.advice = _advice(report, embed)
    return report


def _configured(embed: EmbedSettings, packaged: ModelFiles | None) -> tuple[ModelFiles | None, str | None]:
    """The configured model's files on this machine, or None and why not."""
    try:
        return installed_model(embed), None
    except ModelUnavailableError as err:
        if packaged is not None and model_spec(embed.model) is OFFLINE_MODEL:
            return packaged, None  # all-MiniLM-L6-v2 configured: its packaged copy is it, as loading takes it
        return None, str(err)


def _packaged(embed: EmbedSettings, backend: Backend) -> ModelFiles | None:
    try:
        return packaged_offline_model(embed, backend)
    except ModelUnavailableError:  # its package is not installed (the torch extra's, for sentence-transformers)
        return None


def _files_info(files: ModelFiles | None) -> ModelFilesInfo | None:
    return ModelFilesInfo.of(files) if files is not None else None


def _knowledge_base(settings: Settings) -> tuple[int, ModelInfo | None]:
    with access_checked(settings.data_dir):
        companies = list_companies(settings.data_dir)
        if not companies:
            return 0, None
        with open_store(settings, reader=True) as store:
            return len(companies), store.model_info()


def _advice(report: ModelsReport, embed: EmbedSettings) -> list[str]:
    advice = []
    if report.installed is None:
        # Pull is named only where it can help: an unknown model, or another backend's weights, it refuses.
        advice.append(refusal if (refusal := pull_refusal(embed)) else
                      f"run `{PULL}` to download {report.configured} (about 130 MB, from the Hugging Face hub)")
    if report.knowledge_base is not None and report.in_use is not None:
        mismatch = model_mismatch(report.knowledge_base, report.in_use)
        if mismatch:
            advice.append(mismatch)
    if report.companies and report.knowledge_base is None:  # the store was deleted, or is new beside gathered companies
        advice.append(f"the store holds no vectors of the {report.companies} gathered compan{'y' if report.companies == 1 else 'ies'}: "
                      "run `cikb rebuild --all` to rebuild it from their raw documents")
    return advice
