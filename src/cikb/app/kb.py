"""The knowledge base as a whole: which companies it holds, and forgetting one (spec S3)."""

from __future__ import annotations

from cikb.store import open_store

from cikb.app.indexing import recover
from cikb.app.models import CompanyStatus
from cikb.app.workspace import CompanyDir, display_name, list_companies
from cikb.core.config import Settings
from cikb.core.errors import LockedError, UnknownCompanyError
from cikb.core.slug import check_slug


def company_statuses(settings: Settings) -> list[CompanyStatus]:
    """Every gathered company with its documents, points, model and last gather time."""
    recover_pending(settings)
    folders = list_companies(settings.data_dir)
    if not folders:
        return []
    with open_store(settings) as store:
        points = store.companies()
    return [_status(folder, points.get(folder.slug, 0)) for folder in folders]


def _status(folder: CompanyDir, points: int) -> CompanyStatus:
    generation = folder.current()
    manifest = folder.manifest()
    model = manifest.get("model") or {}
    return CompanyStatus(
        slug=folder.slug,
        name=display_name(manifest, folder.slug),
        documents=manifest.get("documents", 0),
        chunks=points,
        model=f"{model.get('name')} ({model.get('variant')})" if model else None,
        gathered_at=manifest.get("gathered_at"),
        indexed=generation is not None and folder.indexed_id() == generation.id,
    )


def forget_company(settings: Settings, slug: str) -> dict[str, int | str]:
    """Remove exactly one company's points and raw files; raises UnknownCompanyError if it has neither."""
    folder = CompanyDir(settings.data_dir, check_slug(slug))
    with folder.lock(settings.gather.lock_timeout):
        recover(settings, folder)
        generation = folder.current()
        documents = len(list(folder.raw_link.glob("*.md"))) if generation else 0
        with open_store(settings) as store:
            points = store.delete_company(slug)
        if not documents and not points:
            folder.remove()  # only the lock file we just made
            raise UnknownCompanyError(f"no company {slug!r} in the knowledge base (see `cikb companies`)")
        folder.remove()  # points first: a forget killed halfway is finished by running it again
    return {"company": slug, "points": points, "documents": documents}


def recover_pending(settings: Settings) -> list[str]:
    """Finish every commit a killed gather left between its raw swap and its store write.

    Readers call this before opening the store, so they never see a company whose raw
    files and points come from different gathers. A company whose lock is held is left
    to the gather holding it. Returns the slugs recovered.
    """
    recovered = []
    for folder in list_companies(settings.data_dir):
        if not folder.pending():
            continue
        try:
            with folder.lock(0):
                if recover(settings, folder):
                    recovered.append(folder.slug)
        except LockedError:
            continue
    return recovered
