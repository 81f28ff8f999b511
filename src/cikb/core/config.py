"""The one configuration object.

Layers, lowest to highest priority: the defaults below < a TOML file
(``cikb.toml`` in the working directory, or the path in ``CIKB_CONFIG`` or
``--config``) < environment variables (``CIKB_<SECTION>__<FIELD>``, e.g.
``CIKB_GATHER__DOWNLOAD_DELAY=0.5``) < command-line flags.

Components receive a :class:`Settings` (or one of its sections); they never
read the environment themselves.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    AnyUrl,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    NonNegativeFloat,
    TypeAdapter,
    UrlConstraints,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
    TomlConfigSettingsSource,
)

from cikb.core.errors import ConfigError
from cikb.core.models import PageKind
from cikb.core.secrets import mask_tree, secrets_in

CONFIG_ENV_VAR = "CIKB_CONFIG"
DEFAULT_CONFIG_FILE = "cikb.toml"
# CIKB_ variables that name no setting but are read elsewhere (a Typer option's envvar); every other
# CIKB_ variable must name a setting, so a misspelt one is refused instead of silently ignored.
OTHER_VARIABLES = (CONFIG_ENV_VAR, "CIKB_SERVE_TOKEN")
# The file load_settings() was given; it outranks CIKB_CONFIG and ./cikb.toml.
_config_file: ContextVar[Path | None] = ContextVar("cikb_config_file", default=None)


_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw]?)", re.IGNORECASE)
_UNIT_SECONDS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800}


def parse_duration(text: str) -> float:
    """`1d`, `12h`, `30m`, `90s`, `1h30m`, `1w`, or seconds (`3600`) -> seconds; ValueError on anything else."""
    spaced = text.strip().lower()
    parts = _DURATION_PART.findall(spaced)
    if not parts or _DURATION_PART.sub("", spaced).strip():
        raise ValueError(f"{text!r} is not a duration: give seconds or a number with s, m, h, d or w, e.g. 1d, 12h, 1h30m")
    return sum(float(number) * _UNIT_SECONDS[unit] for number, unit in parts)


def _url_of(*schemes: str) -> Callable[[str], str]:
    """A URL setting's check: one of ``schemes``, a host and a valid port, as pydantic's URL parser reads them.

    The text is kept as written (pydantic's form adds a "/" to a bare host, which Qdrant's client takes as a
    path prefix): checked here, a typo such as "localhost:80a0" is a configuration error naming the setting,
    not an httpx or urllib3 exception deep inside the first request.
    """
    parser = TypeAdapter(Annotated[AnyUrl, UrlConstraints(allowed_schemes=list(schemes), host_required=True)])

    def checked(text: str) -> str:
        url = parser.validate_python(text.strip())  # its ValidationError becomes the setting's own error
        if url.port == 0:  # the parser's range starts at 0, where no server listens
            raise ValueError("URL port should be from 1 to 65535")
        return text.strip()

    return checked


def _blank_is_unset(value: object) -> object:
    # url = "" in cikb.toml meant "not configured" before URLs were checked, as an empty variable does.
    return None if isinstance(value, str) and not value.strip() else value


HttpURL = Annotated[str, AfterValidator(_url_of("http", "https"))]
RedisURL = Annotated[str, AfterValidator(_url_of("redis", "rediss"))]
OptionalHttpURL = Annotated[HttpURL | None, BeforeValidator(_blank_is_unset)]
OptionalRedisURL = Annotated[RedisURL | None, BeforeValidator(_blank_is_unset)]


class Section(BaseModel):
    """A ``[section]`` of the configuration: a misspelt key is refused (with the nearest known key), never ignored."""

    # No infinity or NaN: a delay of "inf" passed validation and failed the crawler's process, which reads its job as
    # JSON (where inf is null), and `cikb config` printed "Infinity", which is no JSON.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class GatherSettings(Section):
    """Crawl bounds (spec G3). Politeness is per domain."""

    max_pages_per_source: int = Field(20, ge=1, description="Pages kept per source at most.")
    max_raw_bytes: int = Field(100_000, ge=1_000, description="Raw text per document at most (bytes of extracted text).")
    max_download_bytes: int = Field(5_000_000, ge=10_000, description="Bytes of one HTTP response at most (HTML is usually far bigger than its text).")
    request_timeout: float = Field(
        30.0, gt=0,
        description="Seconds a page may take in all: connecting, headers and body (a slow-dripping server is cut off), retries and their backoff included. A page past it is reported as timed out.",
    )
    source_timeout: float = Field(
        300.0, gt=0,
        description="Seconds one source may crawl; then it stops: pages in flight count as timed out, pages not yet fetched as dropped (budget).",
    )
    download_delay: float = Field(1.0, ge=0, description="Seconds between requests to one domain, counted from the previous answer.")
    max_attempts: int = Field(3, ge=1, description="Attempts per request on timeouts, 429 and 5xx.")
    backoff_base: float = Field(1.0, ge=0, description="Backoff before retry n is backoff_base * 2**(n-1) seconds.")
    allowed_content_types: list[str] = Field(default_factory=lambda: ["text/html"], description="Only these content types are kept.")
    user_agent: str = Field("cikb/0.1 (+https://github.com/cikb/cikb)", description="User-Agent sent, and the agent robots.txt rules are read for.")
    wikipedia_base_url: HttpURL = Field("https://en.wikipedia.org/wiki/", description="Where `--wikipedia NAME` articles are looked up.")
    crunchbase_base_url: HttpURL = Field("https://www.crunchbase.com/organization/", description="Where `--crunchbase NAME` organisation pages are looked up.")
    lock_timeout: float = Field(0.0, ge=0, description="Seconds to wait for another gather of the same company; 0 fails at once.")
    max_parallel_companies: int = Field(
        4, ge=1, description="`cikb gather --from-csv`: companies gathered at once; two whose sources share a domain never run together."
    )
    language: str = Field("en", description="The website spider fetches pages under another language's path prefix (/de/, /fr/), and pages linked only from pages declaring another language (<html lang>), last.")
    crawl_order: Literal["facts_first", "breadth_first"] = Field(
        "facts_first",
        description="Website crawl order: facts_first scores each URL (about, team, contact, legal, press, announcement posts first; listings and generic articles last); breadth_first fetches in the order found.",
    )
    overlap: bool = Field(True, description="Clean, chunk and embed each page as it arrives, while the crawl waits out its delay; false: only after the crawl (the same result, slower).")
    max_age: float = Field(
        0.0, ge=0,
        description="Seconds (or a duration: 90s, 30m, 12h, 1d, 1w, 1h30m) within which a page fetched live before is taken from the HTTP cache without a request (`gather --max-age`); 0: every stored page is revalidated.",
    )
    politeness_url: OptionalRedisURL = Field(
        None,
        description="A Redis URL shared by every crawl that uses it: at most one request per download_delay per registered domain across them all, on any machine (`cikb worker` sets it to its queue's URL); unset: per crawl only.",
    )

    @field_validator("max_age", mode="before")
    @classmethod
    def _duration(cls, value: object) -> object:
        return parse_duration(value) if isinstance(value, str) else value


class CleanSettings(Section):
    """HTML -> Markdown bounds (spec C2, C3)."""

    min_chars: int = Field(100, ge=0, description="Documents shorter than this after cleaning are dropped.")
    max_chars: int = Field(50_000, ge=100, description="Documents longer than this are truncated.")
    language: str = Field("en", description="Only documents in this language (langdetect code) are kept.")
    near_duplicate_threshold: float = Field(0.9, gt=0, le=1, description="Jaccard similarity of word shingles at which two documents count as one.")
    site_facts: bool = Field(True, description="Keep the website's schema.org data and its site-wide footer (address, phone, e-mail) as one facts document per company.")


class ChunkSettings(Section):
    """Chunk sizes in the embedding model's tokens (spec K2)."""

    target_tokens: int = Field(384, ge=64, description="Chunks grow towards this size.")
    max_tokens: int = Field(512, ge=64, description="Hard maximum, special tokens included.")
    min_tokens: int = Field(50, ge=0, description="Smaller pieces merge with a neighbour.")
    overlap_tokens: int = Field(50, ge=0, description="Tokens shared by adjacent chunks.")


class EmbedSettings(Section):
    """Dense model resolution (spec E1, E2)."""

    model: str = Field("Snowflake/snowflake-arctic-embed-s", description="The product's dense model.")
    model_path: Path | None = Field(None, description="A local directory holding the model; tried first.")
    cache_dir: Path | None = Field(None, description="Model cache directory (default: the Hugging Face / fastembed cache).")
    backend: Literal["auto", "fastembed", "sentence-transformers"] = Field("auto", description="auto: fastembed (onnxruntime), else sentence-transformers.")
    allow_download: bool = Field(False, description="Try the hub when the model is not local. Off by default: offline machines would hang.")
    offline_fallback: bool = Field(True, description="Use the packaged all-MiniLM-L6-v2 when the configured model cannot be loaded.")
    batch_size: int = Field(64, ge=1)
    onnx_batch_size: int = Field(
        1, ge=1,
        description="Texts per onnxruntime call within a batch (fastembed backend). One is the fastest on CPU (no padding) and the smallest: memory grows ~ texts x tokens^2 (64 chunks of ~450 tokens peak near 5 GB).",
    )
    onnx_arena: bool = Field(
        True,
        description="onnxruntime's CPU memory arena (fastembed backend): about 2x faster; it keeps the largest call's buffers, so keep onnx_batch_size small with it.",
    )
    onnx_threads: int | None = Field(
        None, ge=1,
        description="Texts embedded at once, each on one onnxruntime thread (fastembed backend); unset: every CPU this process may use, at most 8 (each text in flight holds ~100 MB; on 2 cores ~1.8x one thread's speed, and faster than one text on two threads).",
    )
    device: Literal["auto", "cpu", "cuda"] = Field("auto", description="sentence-transformers only; auto picks CUDA when present.")


class StoreSettings(Section):
    """Where points live (spec S1, S2)."""

    mode: Literal["embedded", "server", "local"] = Field(
        "embedded",
        description="embedded: Qdrant Edge in-process (default); server: a Qdrant server or cluster at `url`; local: qdrant-client's local mode (slow; tests).",
    )
    collection: str = Field("company_intel")
    url: OptionalHttpURL = Field(None, description="Qdrant server URL for mode=server.")
    api_key: str | None = Field(None, repr=False, description="Qdrant API key for mode=server.")
    path: Path | None = Field(None, description="Directory of the embedded store (default: <data_dir>/_qdrant; names starting with _ are never company slugs).")
    timeout: float = Field(10.0, gt=0, description="Seconds per request to a Qdrant server (mode=server).")
    lock_timeout: float = Field(10.0, ge=0, description="Seconds to wait while another process reads or writes the embedded store (a search holds it for milliseconds, a gather for its commit), said in one line after 1 s; 0 fails at once.")
    shard_number: int | None = Field(None, ge=1, description="mode=server: shards of a new collection (default: one per node of the cluster).")
    replication_factor: int | None = Field(None, ge=1, description="mode=server: copies of each shard in a new collection (2+ survives a node loss).")


class QueueSettings(Section):
    """`cikb worker`, `cikb gather --from-csv FILE --queue URL`, `cikb jobs`: gathers spread over the workers of a task queue (Celery over Redis)."""

    url: OptionalRedisURL = Field(None, description="The Redis broker of the task queue (redis://HOST:PORT/N) that `cikb worker` and `cikb jobs` use when --queue is not given.")
    visibility_timeout: float = Field(
        3600.0, gt=0,
        description="Seconds after which a task its worker has not acknowledged is delivered to another: a worker that died (killed, its machine lost) has its company gathered again; one still gathering holds the row's lease, and the second delivery waits for it.",
    )
    concurrency: int = Field(1, ge=1, description="Companies one `cikb worker` gathers at once (threads sharing one loaded model).")


# Measured on letsencrypt.org (bench/ask.py): on the whole site the evidence of 8/14 facts reached the
# context without a prior and 12/14 with these weights; on a 20-page gather 11/14 either way.
PAGE_KIND_WEIGHTS: dict[PageKind, float] = {"company": 1.0, "news": 1.0, "page": 0.7, "generic": 0.5, "listing": 0.5}


class RetrieveSettings(Section):
    """Hybrid retrieval (spec R1)."""

    prefetch_limit: int = Field(50, ge=1, description="Candidates from each of dense and sparse.")
    fusion: Literal["dbsf", "rrf"] = Field(
        "dbsf",
        description="How the dense and BM25 lists become one: dbsf, Qdrant's distribution-based score fusion (each list's scores "
        "normalised by its mean +- 3 standard deviations, summed); rrf, reciprocal rank fusion, 1/(rrf_k + rank).",
    )
    fusion_weights: tuple[NonNegativeFloat, NonNegativeFloat] = Field(
        (1.0, 1.0), description="(dense, BM25) weights: weighted RRF w/(rrf_k + rank), or w x DBSF's normalised score."
    )
    rrf_k: int = Field(60, ge=1, description="RRF constant in the 1/(k + rank) convention with ranks from 1.")
    rerank: Literal["sentences", "none"] = Field(
        "sentences",
        description="sentences: reorder the fused top rerank_depth by each chunk's best sentence (the IDF-weighted share of "
        "the question's words it holds); none: the fused order.",
    )
    expansion_weight: float = Field(
        0.5, ge=0, le=1,
        description="Weight of each question word's relation words (founded ~ established, headquartered ~ address) added to the BM25 query, "
        "and of a sentence's relation word in the sentence rerank; 0 turns expansion off.",
    )
    rerank_depth: int = Field(20, ge=1, description="Fused candidates the rerank reorders (top_k are kept).")
    rerank_weight: float = Field(0.5, ge=0, le=1, description="Share of the best-sentence score in the reranked score; the rest is the fused score (both min-max normalised).")
    answer_first: bool = Field(
        True,
        description="Move the top-k chunk holding the offline reader's sure answer (a typed value, read with high confidence) to the top; "
        "the others keep their order. Offline only: with an LLM configured, the context keeps retrieval's order.",
    )
    duplicate_threshold: float = Field(
        0.9, gt=0, le=1,
        description="Candidates whose word 5-shingles reach this Jaccard similarity with a better-ranked chunk's are left out "
        "(versioned documents repeat sections word for word); 1.0 leaves out identical texts only.",
    )
    page_kind_weights: dict[PageKind, NonNegativeFloat] = Field(
        default_factory=lambda: dict(PAGE_KIND_WEIGHTS),
        description="Each fused candidate's score is multiplied by the weight of its page's kind (a prior: pages about the company "
        "and its announcements over other pages, generic articles such as docs and reports, and listings such as a blog index); "
        "kinds left out keep these defaults; all 1.0 turns the prior off.",
    )
    top_k: int = Field(10, ge=1)
    score_threshold: float | None = Field(None, ge=-1, le=1, description="Minimum cosine on the dense side (R1a). Unset: the model's own, 0.3 for arctic-embed-s, 0.15 for the offline all-MiniLM-L6-v2.")
    context_tokens: int = Field(4000, ge=100, description="Retrieved context handed to the answerer, at most.")

    @field_validator("page_kind_weights", mode="after")
    @classmethod
    def _over_defaults(cls, weights: dict[PageKind, float]) -> dict[PageKind, float]:
        return {**PAGE_KIND_WEIGHTS, **weights}  # "listing = 1.0" alone changes the listing weight only


class LLMSettings(Section):
    """Any OpenAI-compatible endpoint. Without base_url and model, cikb runs offline."""

    base_url: OptionalHttpURL = Field(None, description="e.g. https://api.openai.com/v1 or http://127.0.0.1:8080/v1")
    api_key: str | None = Field(None, repr=False, description="Sent as the bearer token; a placeholder is used for keyless local servers.")
    model: str | None = Field(None, description="Model name the endpoint expects.")
    timeout: float = Field(60.0, gt=0)
    max_tokens: int = Field(512, ge=16)
    temperature: float = Field(0.0, ge=0, le=2)
    max_retries: int = Field(2, ge=0, description="Retries on connection errors, 429 and 5xx (the openai client's backoff).")

    @property
    def configured(self) -> bool:
        return bool(self.base_url and self.model)


class EnrichSettings(Section):
    """Table enrichment (spec N3-N6)."""

    concurrency: dict[str, int] = Field(
        default_factory=lambda: {"lookup": 3, "research:exploratory": 3, "research:comprehensive": 2, "computation": 10},
        description="Rows in flight at once, per strategy.",
    )
    search_provider: Literal["none", "openai", "http"] = Field("none", description="Web search provider; none keeps enrichment to the knowledge base.")
    search_url: OptionalHttpURL = Field(None, description="Endpoint of the `http` search provider: GET ?q=...&count=N answering {\"results\": [{url, title, snippet}]}.")
    search_model: str | None = Field(None, description="Model for the `openai` search provider's Responses API web_search tool (default: llm.model).")
    search_results: int = Field(5, ge=1, le=20, description="Search hits read per query.")
    pages_per_query: int = Field(2, ge=0, le=10, description="Pages the research strategy fetches per search (comprehensive: one more).")
    plugins: list[str] = Field(default_factory=list, description="Python modules imported before enriching; each registers its strategies with enrich.register_strategy.")
    retry_threshold: float = Field(0.6, ge=0, le=1, description="Cells scoring under this are retried with feedback (confidence as a number: high 0.9, medium 0.6, low 0.3, none 0).")
    max_attempts: int = Field(3, ge=1, le=10, description="Attempts per cell in all, the first included; a retry that does not improve the cell ends its retries.")


class SearchStrategy(BaseModel):
    """How one search strategy of `cikb build` searches (spec L1): the web_search tool's parameters and a hint."""

    max_results: int = Field(8, ge=1, le=50, description="Items one search of this strategy returns at most.")
    search_context_size: Literal["low", "medium", "high"] = Field("medium", description="The web_search tool's search_context_size.")
    hint: str = Field("", description="Added to the search instructions (e.g. prefer recent news, directory pages).")


def _default_strategies() -> dict[str, SearchStrategy]:
    return {
        "web": SearchStrategy(max_results=8, hint="A general web search."),
        "news": SearchStrategy(max_results=5, search_context_size="low", hint="Prefer recent news articles (the last 12 months)."),
        "agg": SearchStrategy(max_results=8, hint="Prefer directory, ranking and list pages (site:-style queries) that name many items at once."),
    }


class ListSettings(Section):
    """`cikb build`: from a description to a CSV list (spec L1, L2). Models default to llm.model."""

    generate_model: str | None = Field(None, description="Model that writes candidate searches (default: llm.model).")
    filter_model: str | None = Field(None, description="Model that picks the searches to run (default: llm.model).")
    schema_model: str | None = Field(None, description="Model that proposes the columns when --columns is not given (default: llm.model).")
    search_model: str | None = Field(None, description="Model that runs each search with the Responses API web_search tool (default: llm.model).")
    initial_batches: int = Field(2, ge=1, le=20, description="Batches of candidate searches generated first.")
    per_batch: int = Field(25, ge=1, le=100, description="Candidate searches asked for per batch (and per retry round).")
    filtered_count: int = Field(12, ge=1, le=200, description="Searches the filter keeps for approval.")
    max_retry_rounds: int = Field(2, ge=0, le=10, description="Extra rounds (with a performance report) while the list is shorter than --min-items.")
    max_output_tokens: int = Field(4000, ge=256, description="Output tokens per build call at most.")
    default_columns: list[str] = Field(
        default_factory=lambda: ["Company", "Website", "Description"],
        description="Columns used when --columns is not given and no schema could be generated.",
    )
    export_dir: Path = Field(Path("lists"), description="Where `cikb build` writes output_YYYYMMDD_HHMMSS.csv (relative: from the working directory).")
    use_mock_search: bool = Field(False, description="Answer searches from cikb's fixed local results instead of the web (tests, offline demos).")
    strategies: dict[str, SearchStrategy] = Field(
        default_factory=_default_strategies,
        description="Search strategy -> web_search parameters; an unknown strategy searches as `web`.",
    )


class Settings(BaseSettings):
    """Every bound and endpoint of cikb, in one place."""

    # An empty CIKB_ variable is unset: "CIKB_DATA_DIR=" meant the working directory, where gathers then wrote.
    model_config = SettingsConfigDict(env_prefix="CIKB_", env_nested_delimiter="__", extra="forbid", env_ignore_empty=True)

    data_dir: Path = Field(Path("data"), description="Raw documents, the embedded store and logs live here. Relative paths (here and in store.path, embed.model_path, embed.cache_dir) are taken from the working directory when the settings load.")
    gather: GatherSettings = Field(default_factory=GatherSettings)
    clean: CleanSettings = Field(default_factory=CleanSettings)
    chunk: ChunkSettings = Field(default_factory=ChunkSettings)
    embed: EmbedSettings = Field(default_factory=EmbedSettings)
    store: StoreSettings = Field(default_factory=StoreSettings)
    retrieve: RetrieveSettings = Field(default_factory=RetrieveSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    enrich: EnrichSettings = Field(default_factory=EnrichSettings)
    lists: ListSettings = Field(default_factory=ListSettings)
    queue: QueueSettings = Field(default_factory=QueueSettings)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # init (command line) > environment > TOML file > defaults.
        toml_file = _config_file.get() or os.environ.get(CONFIG_ENV_VAR) or DEFAULT_CONFIG_FILE  # "CIKB_CONFIG=" is unset
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls, toml_file=toml_file))

    @field_validator("data_dir", mode="before")
    @classmethod
    def _not_empty(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            raise ValueError("an empty path (leave it out for the default, data)")
        return value

    @model_validator(mode="after")
    def _resolve_paths(self) -> Settings:
        # Resolved once, here: every later comparison, symlink and child process sees absolute paths,
        # so a relative data_dir behaves exactly like the absolute one.
        self.data_dir = _absolute(self.data_dir)
        self.store.path = _absolute(self.store.path)
        self.embed.model_path = _absolute(self.embed.model_path)
        self.embed.cache_dir = _absolute(self.embed.cache_dir)
        self.lists.export_dir = _absolute(self.lists.export_dir)
        return self

    def secrets(self) -> set[str]:
        """Every configured secret (API keys, credentials in URLs): values no output may show."""
        return secrets_in(self.model_dump(mode="json"))

    def masked_dump(self) -> dict:
        """The effective configuration as JSON data with every secret shown as ``****`` (``cikb config``)."""
        return mask_tree(self.model_dump(mode="json"), self.secrets())

    @property
    def store_path(self) -> Path:
        return self.store.path or self.data_dir / "_qdrant"

    @property
    def cache_dir(self) -> Path:
        """The vector cache, shared by every company (``cikb gather --full`` ignores it)."""
        return self.data_dir / "_cache"

    def company_dir(self, slug: str) -> Path:
        return self.data_dir / slug


def _absolute(path: Path | None) -> Path | None:
    return None if path is None else Path(os.path.abspath(path.expanduser()))


def load_settings(config_file: str | os.PathLike[str] | None = None, **overrides: object) -> Settings:
    """Build the settings from every layer; ``overrides`` are the command line's.

    Raises ConfigError, one line saying where and why, when the config file (``config_file``, else
    ``CIKB_CONFIG``) is missing or a folder, the TOML file is not TOML or not UTF-8, a ``CIKB_`` variable
    names no setting or cannot be parsed, a key is unknown or invalid, or ``data_dir`` is a file.
    """
    _refuse_unknown_variables()
    config_path = _named_config_file(config_file)
    token = _config_file.set(config_path)  # for this construction only; the environment stays untouched
    toml_file = config_path or DEFAULT_CONFIG_FILE
    try:
        loaded = Settings(**overrides)
    except tomllib.TOMLDecodeError as err:  # its message ends "(at line L, column C)"
        raise ConfigError(f"{toml_file}: not valid TOML: {err}") from None
    except UnicodeDecodeError as err:
        raise ConfigError(f"{toml_file}: not UTF-8 text (byte 0x{err.object[err.start]:02x} at offset {err.start})") from None
    except SettingsError as err:
        raise ConfigError(_unparsable_variable(err)) from None
    except ValidationError as err:
        raise ConfigError(_invalid(err, toml_file)) from None
    finally:
        _config_file.reset(token)
    if loaded.data_dir.exists() and not loaded.data_dir.is_dir():
        raise ConfigError(f"data_dir {loaded.data_dir} is a file, not a folder: give --data-dir a folder (it is made when missing)")
    return loaded


def _named_config_file(config_file: str | os.PathLike[str] | None) -> Path | None:
    """The config file named by the argument, else by CIKB_CONFIG (empty: unset); None: ./cikb.toml, if there.

    A named file must exist, from the library as from the CLI: a typo in its name would otherwise leave
    every setting at its default without a word.
    """
    named = config_file if config_file is not None else os.environ.get(CONFIG_ENV_VAR) or None
    if named is None:
        return None
    path = Path(named)
    if not path.is_file():
        raise ConfigError(f"config file {'is a folder' if path.is_dir() else 'not found'}: {path}")
    return path


def _refuse_unknown_variables() -> None:
    """Refuse a non-empty CIKB_ variable that names no setting, with the nearest name.

    pydantic-settings reads only the names it knows (and refuses unknown keys of a known section only), so
    CIKB_GATHR__DOWNLOAD_DELAY or CIKB_DATADIR would silently leave the default in place.
    """
    for name in sorted(os.environ):
        upper = name.upper()  # pydantic-settings reads the variables case-insensitively
        if upper.startswith("CIKB_") and os.environ[name] and not _names_a_setting(upper):
            known = [env.removeprefix("CIKB_") for env in (*OTHER_VARIABLES, *(row[0] for row in _reference_rows()))]
            near = difflib.get_close_matches(upper.removeprefix("CIKB_"), known, n=1)
            hint = f"did you mean CIKB_{near[0]}?" if near else "`cikb config --reference` lists them"
            raise ConfigError(f"unknown variable {name}: it names no setting; {hint}")


def _names_a_setting(variable: str) -> bool:
    """CIKB_DATA_DIR, CIKB_GATHER (a whole section, as JSON), CIKB_GATHER__<key> (the key is checked by the
    section: an unknown one is refused with the nearest key), or a variable read elsewhere."""
    if variable in OTHER_VARIABLES:
        return True
    head, nested, _ = variable.removeprefix("CIKB_").partition("__")
    field = Settings.model_fields.get(head.lower())
    return field is not None and (not nested or _is_section(field.annotation))


def _is_section(annotation: object) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _unparsable_variable(err: SettingsError) -> str:
    """Which ``CIKB_`` variable pydantic-settings could not parse ("error parsing value for field "retrieve" ...")."""
    field = next(iter(re.findall(r'field "([^"]+)"', str(err))), "")
    names = sorted(k for k in os.environ if field and k.upper().startswith(f"CIKB_{field.upper()}"))
    cause = f": {err.__cause__}" if err.__cause__ else ""
    return f"{', '.join(names) or 'a CIKB_ variable'}: cannot be parsed (JSON for lists and tables){cause}"


def _invalid(err: ValidationError, toml_file: object) -> str:
    """The first validation error as one line; an unknown key or section with the nearest known one."""
    first = err.errors()[0]
    loc = [str(part) for part in first["loc"]]
    if first["type"] == "extra_forbidden" and len(loc) in (1, 2):
        section = Settings.model_fields.get(loc[0]) if len(loc) == 2 else None
        known = list(section.annotation.model_fields) if section is not None else list(Settings.model_fields)
        near = difflib.get_close_matches(loc[-1], known, n=1)
        hint = f"; did you mean {near[0]}?" if near else ""
        where = f"[{loc[0]}] " if len(loc) == 2 else ""
        return f"unknown {'key' if where else 'key or section'} {where}{loc[-1]} (in {toml_file} or a CIKB_ variable){hint}"
    return f"invalid configuration {'.'.join(loc)}: {first['msg']}"


def _reference_rows() -> Iterator[tuple[str, str, object, str]]:
    """(environment variable, TOML key, default value, description) for every setting."""
    for name, field in Settings.model_fields.items():
        annotation = field.annotation
        if _is_section(annotation):
            section = annotation()
            for sub, sub_field in annotation.model_fields.items():
                yield f"CIKB_{name.upper()}__{sub.upper()}", f"[{name}] {sub}", getattr(section, sub), sub_field.description or ""
        else:
            yield f"CIKB_{name.upper()}", name, field.get_default(call_default_factory=True), field.description or ""


def config_reference() -> list[tuple[str, str, str, str]]:
    """(environment variable, TOML key, default, description) for every setting."""
    return [(env, key, _show(default), description) for env, key, default, description in _reference_rows()]


def config_reference_json() -> list[dict[str, object]]:
    """Every setting as {env, toml, default, description}, the default as JSON data (unset: null)."""
    as_json = TypeAdapter(object)
    return [{"env": env, "toml": key, "default": as_json.dump_python(default, mode="json"), "description": description}
            for env, key, default, description in _reference_rows()]


def config_reference_markdown() -> str:
    lines = ["| environment variable | cikb.toml | default | meaning |", "|---|---|---|---|"]
    for env, key, default, description in config_reference():
        lines.append(f"| `{env}` | `{key}` | `{default}` | {description} |")
    return "\n".join(lines)


def _show(value: object) -> str:
    if value is None:
        return "unset"
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, dict):  # sections' tables of models ([lists] strategies) show as plain data
        value = {key: item.model_dump() if isinstance(item, BaseModel) else item for key, item in value.items()}
    return str(value).replace("|", "\\|")
