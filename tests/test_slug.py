import pytest

from cikb.core.errors import BadInputError
from cikb.core.slug import check_slug, company_from_name, slugify


@pytest.mark.parametrize(
    "name, slug",
    [
        ("Acme Corp, Inc.", "acme-corp"),
        ("Acme Corp", "acme-corp"),
        ("  ACME   corp  ", "acme-corp"),
        ("Société Générale S.A.", "societe-generale-s-a"),
        ("Let's Encrypt", "lets-encrypt"),  # apostrophes join their word (was let-s-encrypt)
        ("3M", "3m"),
        ("Inc", "inc"),
    ],
)
def test_slugify(name: str, slug: str) -> None:
    assert slugify(name) == slug


@pytest.mark.parametrize("name", ["", "   ", "../../etc", "..", "a/b", "a\\b", "\x00"])  # "!!!" now gets a hashed slug (test_slug_scripts.py)
def test_slugify_refuses_empty_or_path_like_names(name: str) -> None:
    with pytest.raises(BadInputError):
        slugify(name)


def test_company_keeps_display_name() -> None:
    company = company_from_name("  Acme   Corp, Inc. ")
    assert company.name == "Acme Corp, Inc."
    assert company.slug == "acme-corp"


@pytest.mark.parametrize("slug", ["../x", "Acme", "a--b", "", "-a", "a/b"])
def test_check_slug_refuses_non_canonical(slug: str) -> None:
    with pytest.raises(BadInputError):
        check_slug(slug)
