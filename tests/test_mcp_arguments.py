"""`cikb mcp`'s tools against arguments an agent gets wrong: each is refused at once, in one line.

Driven in-process with the SDK's own client (the same requests and results as over stdio, without a subprocess).
"""

from __future__ import annotations

import asyncio
import time

from mcp import Client

from cikb.app.mcp_server import MAX_TEXT, build_server
from cikb.core.config import Settings


def call(name: str, arguments: dict) -> tuple[object, float]:
    async def run() -> tuple[object, float]:
        async with Client(build_server(Settings())) as client:
            started = time.monotonic()
            result = await client.call_tool(name, arguments)
            return result, time.monotonic() - started

    return asyncio.run(run())


def test_a_pasted_document_as_a_question_is_refused_at_once_not_read_for_hours() -> None:
    # A 1 MB question ran the reader for hours (its work grows faster than the text), holding a worker thread.
    result, seconds = call("ask", {"question": "CEO " * 250_000})
    assert result.is_error and seconds < 5
    assert result.content[0].text == f"Error executing tool ask: question: String should have at most {MAX_TEXT} characters"
    result, _ = call("search", {"query": "x" * (MAX_TEXT + 1), "company": "acme-corp"})
    assert result.is_error and result.content[0].text.endswith(f"query: String should have at most {MAX_TEXT} characters")


def test_the_bounds_are_in_the_tools_schemas() -> None:
    async def schemas() -> dict:
        async with Client(build_server(Settings())) as client:
            return {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}

    listed = asyncio.run(schemas())
    assert listed["ask"]["properties"]["question"]["maxLength"] == MAX_TEXT
    assert listed["search"]["properties"]["query"]["maxLength"] == MAX_TEXT


def test_a_missing_or_mistyped_argument_is_one_line_naming_the_field() -> None:
    # It was pydantic's message: "1 validation error for searchArguments", the field, the message with the value
    # sent, and a link to pydantic's documentation, over four lines.
    missing, _ = call("search", {})
    assert missing.is_error and missing.content[0].text == "Error executing tool search: query: Field required"
    mistyped, _ = call("enrichment_status", {"job_id": 5})
    assert mistyped.content[0].text == "Error executing tool enrichment_status: job_id: Input should be a valid string"
    both, _ = call("ask", {"question": ["a"], "company": 3})
    assert "\n" not in both.content[0].text and "question: " in both.content[0].text and "company: " in both.content[0].text


def test_the_server_tells_the_client_its_version() -> None:
    import cikb

    async def initialized() -> object:
        async with Client(build_server(Settings())) as client:
            return client.server_info

    assert asyncio.run(initialized()).version == cikb.__version__  # it was "" (the SDK's default)
