"""The list builder's pipeline (spec L1) through the real LLM client against the scripted endpoint."""

from __future__ import annotations

import csv
import json

import pytest
from fake_openai import FakeError
from list_script import ListScript, company

from cikb.app.llm import LLMClient
from cikb.core.config import Settings, load_settings
from cikb.lists import (
    Approval,
    BuildRequest,
    ItemTable,
    ListBuilder,
    MockSearch,
    SearchPlan,
    SearchTask,
    WebSearch,
    edit_plan,
)
from cikb.lists.parsing import fallback_searches, parse_searches
from cikb.lists.plan import PlanEditError


@pytest.fixture
def settings(fake_openai) -> Settings:
    settings = load_settings()
    settings.llm.base_url, settings.llm.model = fake_openai.base_url, "fake-model"
    settings.lists.initial_batches, settings.lists.per_batch, settings.lists.filtered_count = 2, 4, 3
    settings.lists.max_retry_rounds = 2
    return settings


def builder(settings: Settings, **kwargs) -> ListBuilder:
    client = LLMClient.from_settings(settings)
    return ListBuilder(client, kwargs.pop("search", None) or WebSearch(client), settings.lists, **kwargs)


def test_missing_and_repeated_ids_become_batch_and_item_numbers() -> None:
    taken = {"a"}
    answer = json.dumps({"searches": [{"id": "a", "query": "x"}, {"query": "y", "strategy": "NEWS"}, {"id": "c", "query": "z", "strategy": "odd"}]})
    tasks = parse_searches(answer, batch=2, taken=taken, strategies={"web", "news", "agg"})
    assert [(t.id, t.strategy) for t in tasks] == [("2_1", "web"), ("2_2", "news"), ("c", "web")]
    assert fallback_searches("1. first idea\n- second idea\n\n", 3, set()) == [
        SearchTask(id="3_1", query="first idea"), SearchTask(id="3_2", query="second idea")]


def test_a_full_build_generates_filters_searches_and_dedupes(settings: Settings, fake_openai) -> None:
    script = ListScript(companies=[company(n) for n in range(1, 9)], per_search=2)
    fake_openai.respond_with(script)
    seen: list[SearchPlan] = []

    def approve(plan: SearchPlan, round: int) -> Approval:
        seen.append(plan)
        return Approval(plan=plan)

    result = builder(settings, approve=approve).build(BuildRequest(description="cloud monitoring startups", min_items=7))
    generate = [json.loads(r["input"]) for r in fake_openai.responses_requests if "batch" in json.loads(r["input"])]
    assert [g["count"] for g in generate] == [4, 4]
    assert generate[1]["already_planned"][:1] == ["b1 query 1"]
    filter_request = next(json.loads(r["input"]) for r in fake_openai.responses_requests if "candidates" in json.loads(r["input"]))
    # batch 1 carries its own ids; batch 2 leaves them out and gets <batch>_<item>
    assert [c["id"] for c in filter_request["candidates"]] == ["b1-1", "b1-2", "b1-3", "b1-4", "2_1", "2_2", "2_3", "2_4"]
    assert seen[0].ids() == ["b1-1", "b1-2", "b1-3"]
    assert result.columns == ["Company", "Website", "City"]  # the derived schema
    # round 0: 3 searches x 2 = companies 1-6; 6 < 7, so one retry round: 7 and 8 new, then 1-4 again (duplicates)
    assert len(seen) == 2 and result.retries_used == 1
    assert [row["Company"] for row in result.rows] == [f"Company {n}" for n in range(1, 9)]
    assert result.searches[3].items_found == 2
    assert result.searches[4].items_found == 0 and result.searches[4].note == "2 results, 2 duplicates or empty"
    first = result.rows[0]
    assert (first["source_query_id"], first["source_strategy"]) == ("b1-1", "news")
    assert set(first) == {"Company", "Website", "City", "source_query_id", "source_strategy"}


def test_the_filter_falls_back_to_every_candidate_and_the_search_request_has_tool_and_schema(settings: Settings, fake_openai) -> None:
    script = ListScript(companies=[company(n) for n in range(1, 40)], per_search=1, filter_ids=[])
    fake_openai.respond_with(script)
    result = builder(settings).build(BuildRequest(description="x", min_items=1, columns=["Company", "Website"]))
    assert len(result.searches) == 8  # 2 batches x 4, none dropped
    search = next(r for r in fake_openai.responses_requests if "query" in json.loads(r["input"]))
    assert search["tools"][0]["type"] == "web_search"
    assert search["text"]["format"]["type"] == "json_schema"
    assert search["text"]["format"]["schema"]["properties"]["items"]["items"]["required"] == ["Company", "Website", "url", "title", "source"]
    logged = [call for call in LLMClient.from_settings(settings).log.recent(50) if call.step.startswith("build:search:")]
    assert len(logged) == 8 and logged[0].params["tools"][0]["type"] == "web_search"  # every search is in `cikb logs`


def test_retry_rounds_send_the_performance_report_and_stop_at_the_limit(settings: Settings, fake_openai) -> None:
    script = ListScript(companies=[company(1)], per_search=1, failing_queries={"b1 query 2"})
    fake_openai.respond_with(script)
    settings.llm.max_retries = 0
    result = builder(settings).build(BuildRequest(description="x", min_items=10, columns=["Company", "Website"]))
    assert result.retries_used == 2 and len(result.rows) == 1
    retries = [json.loads(r["input"]) for r in fake_openai.responses_requests if "performance_report" in json.loads(r["input"])]
    assert len(retries) == 2
    report = retries[0]["performance_report"]
    assert set(report) == {"total_items", "searches", "user_feedback"} and report["total_items"] == 1
    assert set(report["searches"][0]) == {"id", "query", "strategy", "items_found", "note"}
    failed = next(s for s in report["searches"] if s["query"] == "b1 query 2")
    assert failed["items_found"] == 0 and "429" in failed["note"]  # the run went on after the failed search
    assert any(s.query == "b1 query 2" for s in result.zero_result)


def test_an_unparsable_answer_is_asked_again_once_then_read_as_lines(settings: Settings, fake_openai) -> None:
    settings.lists.initial_batches = 1
    fake_openai.reply("not json", "- acme competitors\n- monitoring vendors list")
    fake_openai.respond_with(ListScript(companies=[company(1)], per_search=1))
    result = builder(settings).build(BuildRequest(description="x", min_items=1, columns=["Company"]))
    generate = [r for r in fake_openai.responses_requests if "batch" in json.loads(r["input"])]
    assert len(generate) == 2  # one automatic retry, then the fallback parse
    assert [(s.id, s.query, s.strategy) for s in result.searches] == [("1_1", "acme competitors", "web"), ("1_2", "monitoring vendors list", "web")]


def test_the_mock_provider_answers_from_fixed_local_results(settings: Settings, fake_openai) -> None:
    fake_openai.respond_with(ListScript())
    result = builder(settings, search=MockSearch()).build(BuildRequest(description="x", min_items=5, columns=["Company", "Website", "City"]))
    assert len(result.rows) >= 5 and all(row["Website"].endswith(".example/") for row in result.rows)
    assert not [r for r in fake_openai.responses_requests if "query" in json.loads(r["input"])]  # no web search asked for


def test_rows_dedupe_by_url_else_title_and_source() -> None:
    table = ItemTable(["Company", "Website"])
    task = SearchTask(id="1", query="q")
    assert table.add({"company": "Acme", "url": "https://www.acme.example/"}, task)
    assert not table.add({"Company": "Acme Inc", "Website": "http://acme.example"}, task)
    assert table.add({"Company": "Beta", "title": "Beta", "source": "s1"}, task)
    assert not table.add({"Company": "Beta", "title": "BETA", "source": "S1"}, task)
    assert table.add({"Company": "Beta", "title": "Beta", "source": "s2"}, task)
    assert not table.add({"City": "x"}, task)  # nothing of the schema
    assert table.rows[0] == {"Company": "Acme", "Website": "", "source_query_id": "1", "source_strategy": "web"}


def test_approval_edits_drop_add_and_feedback() -> None:
    plan = SearchPlan(tasks=[SearchTask(id="1", query="a"), SearchTask(id="2", query="b", strategy="news")])
    assert edit_plan(plan, "d 1").plan.ids() == ["2"]
    added = edit_plan(plan, "+ acme rivals").plan.tasks[-1]
    assert (added.id, added.strategy, added.query) == ("u1", "web", "acme rivals")
    assert edit_plan(plan, "f more in Europe").feedback == "more in Europe"
    assert edit_plan(plan, "").action == "approve"
    for bad in ("d 9", "x", "+", "d"):
        with pytest.raises(PlanEditError):
            edit_plan(plan, bad)


def test_respond_falls_back_to_chat_completions_on_an_endpoint_without_responses(settings: Settings, fake_openai) -> None:
    client = LLMClient.from_settings(settings)
    fake_openai.reply(FakeError(404, "no /responses here"), '{"columns": ["Company"]}')
    result = client.respond("build:schema", "{}", instructions="cols", schema={"name": "c", "schema": {"type": "object"}})
    assert result.text == '{"columns": ["Company"]}'
    chat = fake_openai.chat_requests[0]
    assert chat["response_format"]["type"] == "json_schema" and chat["messages"][0] == {"role": "system", "content": "cols"}
    calls = client.log.recent(5)
    assert [c.step for c in calls] == ["build:schema", "build:schema"] and calls[1].error and calls[0].error is None
    assert calls[1].params["api"] == "responses"


def test_the_export_has_only_the_columns_and_never_overwrites(tmp_path) -> None:
    from datetime import datetime

    from cikb.app.lists import export_list
    from cikb.lists import BuildResult

    result = BuildResult(request=BuildRequest(description="x", min_items=1), columns=["Company", "Website"],
                         rows=[{"Company": "Acme", "Website": "https://acme.example/", "source_query_id": "1", "source_strategy": "web"}])
    now = datetime(2026, 1, 2, 3, 4, 5)
    first, second = export_list(result, tmp_path, now), export_list(result, tmp_path, now)
    assert (first.name, second.name) == ("output_20260102_030405.csv", "output_20260102_030405_2.csv")
    assert first.read_bytes() == b"Company,Website\r\nAcme,https://acme.example/\r\n"  # csv's own line ends


def test_a_chat_endpoint_that_refuses_json_schema_gets_the_prompt_alone(settings: Settings, fake_openai) -> None:
    # llama-cpp-python's server: no /responses, and only `text` or `json_object` response formats
    settings.llm.max_retries = 0  # the openai client would send the 500 again
    client = LLMClient.from_settings(settings)
    fake_openai.reply(FakeError(404, "no /responses"), FakeError(500, "response_format.type: Input should be 'text' or 'json_object'"),
                      '{"ids": ["1"]}', '{"ids": ["2"]}')
    assert client.respond("build:filter", "{}", schema={"name": "ids", "schema": {"type": "object"}}).text == '{"ids": ["1"]}'
    assert client.respond("build:filter", "{}", schema={"name": "ids", "schema": {"type": "object"}}).text == '{"ids": ["2"]}'
    first_chat, *plain_chats = fake_openai.chat_requests
    assert "response_format" in first_chat and not any("response_format" in r for r in plain_chats) and len(plain_chats) == 2
    assert len(fake_openai.responses_requests) == 1  # the 404 is remembered
    assert "asked again as a chat completion" in client.log.recent(10)[-1].error


def test_the_export_writes_formula_like_cells_from_the_web_as_text(tmp_path) -> None:
    from cikb.app.lists import export_list
    from cikb.lists import BuildResult

    rows = [{"Company": '=HYPERLINK("http://evil.example","Acme")', "Website": "https://acme.example/", "Employees": "-42"}]
    result = BuildResult(request=BuildRequest(description="x", min_items=1), columns=["Company", "Website", "Employees"], rows=rows)
    with export_list(result, tmp_path).open(newline="", encoding="utf-8") as handle:
        [row] = list(csv.DictReader(handle))
    assert row == {"Company": "'=HYPERLINK(\"http://evil.example\",\"Acme\")", "Website": "https://acme.example/", "Employees": "-42"}
