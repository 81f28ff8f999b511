"""The list builder's pipeline (spec L1) through the real LLM client against the scripted endpoint."""

from __future__ import annotations

import csv
import json
import re

import pytest
from fake_openai import FakeError, FakeRaw
from list_script import ListScript, company

from cikb.app.llm import LLMClient, LLMError
from cikb.core.config import Settings, load_settings
from cikb.lists import (
    Approval,
    BuildFailed,
    BuildRequest,
    ItemTable,
    ListBuilder,
    MockSearch,
    NumberedPlan,
    SearchPlan,
    SearchTask,
    WebSearch,
    edit_plan,
)
from cikb.lists.parsing import parse_columns, parse_searches
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
    with pytest.raises(ValueError):  # prose is no list of searches, whatever its lines say
        parse_searches("Sure! Here are some ideas:\n1. first idea\n- second idea", 1, set(), {"web"})


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


def test_an_empty_pick_keeps_the_first_candidates_and_the_search_request_has_tool_and_schema(settings: Settings, fake_openai) -> None:
    script = ListScript(companies=[company(n) for n in range(1, 40)], per_search=1, filter_ids=[])
    fake_openai.respond_with(script)
    result = builder(settings).build(BuildRequest(description="x", min_items=1, columns=["Company", "Website"]))
    assert [s.id for s in result.searches] == ["b1-1", "b1-2", "b1-3"]  # filtered_count of the 2 x 4 candidates, not all 8
    assert result.notes == ["choosing searches: the model picked none of the 8 candidates' ids; keeping the first 3"]
    search = next(r for r in fake_openai.responses_requests if "query" in json.loads(r["input"]))
    assert search["tools"][0]["type"] == "web_search"
    assert search["text"]["format"]["type"] == "json_schema"
    assert search["text"]["format"]["schema"]["properties"]["items"]["items"]["required"] == ["Company", "Website", "url", "title", "source"]
    logged = [call for call in LLMClient.from_settings(settings).log.recent(50) if call.step.startswith("build:search:")]
    assert len(logged) == 3 and logged[0].params["tools"][0]["type"] == "web_search"  # every search is in `cikb logs`


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


def test_prose_is_asked_again_once_then_the_step_fails_in_one_line_and_never_runs_as_searches(settings: Settings, fake_openai) -> None:
    script = ListScript(companies=[company(n) for n in range(1, 9)], per_search=2, prose={"schema", "batch1", "filter", "retry"})
    fake_openai.respond_with(script)
    lines: list[str] = []
    result = builder(settings, on_event=lines.append).build(BuildRequest(description="x", min_items=20))
    steps = [json.loads(r["input"]) for r in fake_openai.responses_requests]
    assert sum("batch" in s and s["batch"] == 1 for s in steps) == 2 and sum("performance_report" in s for s in steps) == 2
    assert result.columns == ["Company", "Website", "Description"]  # lists.default_columns
    said = "the model answered 'Sure! Here are some searches that could help you build th...', not the asked JSON (asked twice)"
    assert result.notes == [
        f"choosing the columns failed: {said}; using Company, Website, Description (lists.default_columns)",
        f"generating searches: batch 1/2 failed: {said}",
        f"choosing searches failed: {said}; keeping the first 3 of 4",
        f"retry round 1 failed: {said}; no more rounds",
    ]
    assert all(note in lines for note in result.notes)
    assert script.searches_seen == ["b2 query 1", "b2 query 2", "b2 query 3"]  # batch 2's, filtered_count; no sentence of the prose
    assert result.retries_used == 1 and len(result.rows) == 6


def test_a_model_that_plans_no_search_fails_the_build_in_one_line(settings: Settings, fake_openai) -> None:
    fake_openai.respond_with(ListScript(prose={"batch1", "batch2"}))
    with pytest.raises(BuildFailed, match=r"^the model planned no searches \(generating searches: batch 2/2 failed: .*"
                                          r"not the asked JSON \(asked twice\)\): nothing written$"):
        builder(settings).build(BuildRequest(description="x", min_items=1, columns=["Company"]))
    assert not [r for r in fake_openai.responses_requests if "query" in json.loads(r["input"])]


def test_queries_planned_before_are_not_planned_again_and_unused_feedback_is_kept(settings: Settings, fake_openai) -> None:
    # round 1 plans two queries of round 0 again (one reworded in case and spacing) and one new; round 2 only old ones
    script = ListScript(companies=[company(1)], per_search=1, retry_queries=["b1 query 1", "B1  Query 3", "fresh angle"])
    fake_openai.respond_with(script)
    settings.lists.initial_batches, settings.lists.per_batch = 1, 3
    lines: list[str] = []
    feedback = iter(["more in Europe", "", ""])
    approve = lambda plan, round: Approval(plan=plan, feedback=next(feedback))  # noqa: E731
    result = builder(settings, approve=approve, on_event=lines.append).build(BuildRequest(description="x", min_items=5, columns=["Company"]))
    assert script.searches_seen == ["b1 query 1", "b1 query 2", "b1 query 3", "fresh angle"]
    assert "left out 2 of 3 searches: planned before" in lines
    assert result.notes == ["retry round 2: the model planned no new searches; no more rounds"]
    retry = [json.loads(r["input"]) for r in fake_openai.responses_requests if "performance_report" in json.loads(r["input"])]
    assert retry[0]["user_feedback"] == "more in Europe" and retry[1]["already_planned"] == ["b1 query 1", "b1 query 2", "b1 query 3", "fresh angle"]
    assert result.unused_feedback == ""  # round 1 was planned with it

    fake_openai.requests.clear()
    feedback = iter(["first note", "later note"])
    settings.lists.max_retry_rounds = 1
    result = builder(settings, approve=approve).build(BuildRequest(description="x", min_items=5, columns=["Company"]))
    assert result.unused_feedback == "later note"  # given at the last round: nothing followed it


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


def test_approval_edits_act_on_the_numbers_shown_whatever_the_ids() -> None:
    plan = SearchPlan(tasks=[SearchTask(id="b1 s1", query="a"), SearchTask(id="b1,s2", query="b", strategy="news"),
                             SearchTask(id="3", query="c")])
    shown = NumberedPlan.of(plan)
    assert shown.lines() == ["1. [web] a", "2. [news] b", "3. [web] c"]
    dropped = edit_plan(shown, "d 1 3")
    assert dropped.plan.ids() == ["b1,s2"] and dropped.message == "dropped 1, 3; 1 searches left"
    assert edit_plan(shown, "d 2,3").plan.ids() == ["b1 s1"]
    # numbers stay with their search: after dropping 1, "3" is still "c" and an added search is 4
    after = edit_plan(edit_plan(shown, "d 1").shown, "+ acme rivals").shown
    assert after.lines() == ["2. [news] b", "3. [web] c", "4. [web] acme rivals"]
    assert edit_plan(after, "d 3").plan.ids() == ["b1,s2", "u1"]
    # a dropped number is never given again: after dropping 3, an added search is 4, not 3
    assert edit_plan(edit_plan(shown, "d 3").shown, "+ z").shown.lines()[-1] == "4. [web] z"
    added = after.plan.tasks[-1]
    assert (added.id, added.strategy, added.query) == ("u1", "web", "acme rivals")
    noted = edit_plan(edit_plan(shown, "f more in Europe").shown, "f fewer agencies")
    assert noted.feedback == "more in Europe; fewer agencies" and noted.message == "feedback kept for the next round (2 notes)"
    assert edit_plan(shown, "").action == "approve"
    for bad, message in [("d 9", "no search numbered 9 (the plan holds 1, 2, 3): nothing dropped"),
                         ("d b1", "drop takes the searches' numbers, e.g. d 1 3, not b1: nothing dropped"),
                         ("+ A", "search 1 already runs that query: nothing added"), ("x", "unknown command 'x'"),
                         ("+", "add needs text"), ("d", "drop needs one or more numbers"),
                         ("d 2 " + "9" * 5000, "no search numbered 999999999999... (5000 digits) (the plan holds 1, 2, 3): nothing dropped")]:
        with pytest.raises(PlanEditError, match=re.escape(message)):
            edit_plan(shown, bad)


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


@pytest.mark.parametrize("body, content_type, said", [
    ("<html><body>Bad gateway</body></html>", "text/html", "no Responses API answer (another kind of page or JSON)"),
    ('{"status": "ok"}', "application/json", "no Responses API answer (another kind of page or JSON)"),
    ('{"object": "response", "output": []}', "application/json", "an empty answer"),
])
def test_respond_fails_in_one_logged_line_on_a_reply_that_is_no_response(body, content_type, said, settings: Settings, fake_openai) -> None:
    client = LLMClient.from_settings(settings)
    fake_openai.reply(FakeRaw(body, content_type))
    with pytest.raises(LLMError, match=re.escape(f"LLM endpoint {fake_openai.base_url} returned {said}")) as raised:
        client.respond("build:search:web", "{}", tools=[{"type": "web_search"}], schema={"name": "items", "schema": {"type": "object"}})
    [call] = client.log.recent(5)
    assert call.error == str(raised.value) and call.response is None and call.params["api"] == "responses"


def test_an_endpoint_error_at_a_later_rounds_filter_ends_the_rounds_and_keeps_the_rows(settings: Settings, fake_openai) -> None:
    script = ListScript(companies=[company(n) for n in range(1, 9)], per_search=1)
    filters = []

    def second_filter_fails(request):
        if "candidates" in json.loads(request["input"]):
            filters.append(request)
            if len(filters) > 1:
                return FakeError(500, "upstream overloaded")
        return script(request)

    fake_openai.respond_with(second_filter_fails)
    settings.llm.max_retries = 0
    result = builder(settings).build(BuildRequest(description="x", min_items=20, columns=["Company"]))
    assert [row["Company"] for row in result.rows] == ["Company 1", "Company 2", "Company 3"]
    assert result.retries_used == 1 and result.ended_early == result.notes[-1]
    assert result.ended_early.startswith("retry round 1 failed: LLM endpoint") and "HTTP 500: upstream overloaded" in result.ended_early


def test_a_column_named_like_a_result_field_keeps_its_own_value() -> None:
    table = ItemTable(["Name", "Title", "Company"])
    task = SearchTask(id="1", query="q")
    # the items schema asks for both "Title" (the column) and "title" (the item's name, for dedupe)
    assert table.add({"Name": "Ada Lovelace", "Title": "CTO", "Company": "Analytical Engines", "url": "https://ada.example/",
                      "title": "Ada Lovelace", "source": "https://news.example/a"}, task)
    assert table.add({"name": "Grace Hopper", "title": "Grace Hopper", "source": "https://news.example/b"}, task)
    assert [(row["Name"], row["Title"]) for row in table.rows] == [("Ada Lovelace", "CTO"), ("Grace Hopper", "")]


@pytest.mark.parametrize("placeholder", ["N/A", "unknown", "-", "none", "", "http://[oops"])
def test_a_placeholder_url_is_no_dedupe_key(placeholder: str) -> None:
    table = ItemTable(["Company", "Website"])
    task = SearchTask(id="1", query="q")
    for n in range(1, 61):
        table.add({"Company": f"Firm {n}", "Website": placeholder, "url": placeholder, "title": f"Firm {n}", "source": "https://dir.example/"}, task)
    assert len(table) == 60
    # a real address in the Website column is still the key when the result's url is a placeholder
    assert not table.add({"Company": "Firm 1 Ltd", "Website": "N/A", "url": "N/A", "title": "Firm 1", "source": "https://dir.example/"}, task)
    assert table.add({"Company": "Acme", "Website": "acme.example", "url": "N/A", "title": "Acme", "source": "s1"}, task)
    assert not table.add({"Company": "Acme Inc", "Website": "https://www.acme.example/", "url": "unknown", "title": "Acme Inc", "source": "s2"}, task)


def test_the_export_writes_formula_like_column_names_as_text(tmp_path) -> None:
    from cikb.app.lists import export_list
    from cikb.lists import BuildResult

    columns = ["Company", '=HYPERLINK("http://evil.example","x")', "@SUM(1)"]
    rows = [{"Company": "Acme", columns[1]: "a", columns[2]: "b"}]
    result = BuildResult(request=BuildRequest(description="x", min_items=1), columns=columns, rows=rows)
    with export_list(result, tmp_path).open(newline="", encoding="utf-8") as handle:
        assert list(csv.reader(handle)) == [["Company", "'=HYPERLINK(\"http://evil.example\",\"x\")", "'@SUM(1)"], ["Acme", "a", "b"]]


def test_two_exports_in_the_same_second_never_share_a_name(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import datetime

    import cikb.app.lists as app_lists
    from cikb.lists import BuildResult

    def result(name: str) -> BuildResult:
        return BuildResult(request=BuildRequest(description="x", min_items=1), columns=["Company"], rows=[{"Company": name}])

    now, write, others = datetime(2026, 1, 2, 3, 4, 5), app_lists.write_table_atomic, []

    def another_build_exports_first(path, columns, rows):  # the other build exports between this one's name and its write
        monkeypatch.setattr(app_lists, "write_table_atomic", write)
        others.append(app_lists.export_list(result("Other"), tmp_path, now))
        write(path, columns, rows)

    monkeypatch.setattr(app_lists, "write_table_atomic", another_build_exports_first)
    mine = app_lists.export_list(result("Mine"), tmp_path, now)
    assert {path.name: path.read_text().split()[-1] for path in (mine, *others)} == {
        "output_20260102_030405.csv": "Mine", "output_20260102_030405_2.csv": "Other"}


def test_columns_and_cells_given_as_objects_never_become_python_reprs() -> None:
    answer = {"columns": [{"name": "Company", "type": "string"}, {"name": " Website ", "type": "url"}, "City"]}
    assert parse_columns(json.dumps(answer)) == ["Company", "Website", "City"]
    for bad in ({"columns": [{"type": "string"}]}, {"columns": [["Company"]]}, {"columns": [7]}):
        with pytest.raises(ValueError):  # not the asked JSON: asked again, then the default columns
            parse_columns(json.dumps(bad))
    table = ItemTable(["Company", "Website", "City", "Public"])
    table.add({"Company": {"name": "Nested"}, "Website": ["https://e.example/", "https://e2.example/"], "City": {"city": "Paris", "zip": 75001},
               "Public": True, "url": "https://e.example/"}, SearchTask(id="1", query="q"))
    assert [table.rows[0][c] for c in table.columns] == ["Nested", "https://e.example/; https://e2.example/", "Paris; 75001", "true"]


def test_a_batch_is_capped_at_per_batch_and_a_pick_of_unknown_ids_runs_filtered_count(settings: Settings, fake_openai) -> None:
    script = ListScript(companies=[company(n) for n in range(1, 40)], per_search=1, filter_ids=["nope", "99"],
                        retry_queries=[f"retry {n}" for n in range(1, 61)])
    fake_openai.respond_with(lambda request: _sixty_searches(request) or script(request))
    lines: list[str] = []
    result = builder(settings, on_event=lines.append).build(BuildRequest(description="x", min_items=5, columns=["Company"]))
    assert "left out 56 of 60 new searches: over lists.per_batch" in lines
    assert "choosing 3 of 8 searches" in lines  # 2 batches x per_batch 4, not 2 x 60
    assert len(script.searches_seen) == 3 + 3  # round 0 and one retry round: filtered_count each, never every candidate
    assert "choosing searches: the model picked none of the 8 candidates' ids; keeping the first 3" in result.notes


def _sixty_searches(request) -> str | None:
    payload = json.loads(request["input"])
    if "batch" in payload:
        return json.dumps({"searches": [{"query": f"b{payload['batch']} query {n}"} for n in range(1, 61)]})
    return None


def test_respond_with_a_tool_on_a_chat_only_endpoint_fails_without_asking_again(settings: Settings, fake_openai) -> None:
    client = LLMClient.from_settings(settings)
    fake_openai.reply(FakeError(404, "no /responses"), '{"columns": ["Company"]}')
    client.respond("build:schema", "{}", schema={"name": "c", "schema": {"type": "object"}})
    assert client.chat_only
    with pytest.raises(LLMError, match=r"offers no Responses API \(/responses answered 404\), so no web_search tool$"):
        client.respond("build:search:web", "{}", tools=[{"type": "web_search"}])
    assert len(fake_openai.requests) == 2


def test_an_empty_plan_is_the_models_answer_not_a_failed_one(settings: Settings, fake_openai) -> None:
    fake_openai.respond_with(lambda request: '{"searches": []}')
    with pytest.raises(BuildFailed, match=r"^the model planned no searches \(its answers held none\): nothing written$"):
        builder(settings).build(BuildRequest(description="x", min_items=1, columns=["Company"]))
    assert len(fake_openai.requests) == 2  # one per batch: an empty list is not asked again


@pytest.mark.parametrize("columns, message", [
    (["Company", "company"], "columns names company more than once (names compare without case)"),
    (["Company", "  "], "columns has a blank name"),
    ([], "columns is empty"),
    (["Company", "source_strategy"], "columns names source_strategy, a field every row has already"),
])
def test_a_build_request_refuses_the_columns_the_cli_refuses(columns: list[str], message: str) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match=re.escape(message)):
        BuildRequest(description="x", min_items=1, columns=columns)
    assert BuildRequest(description="x", min_items=1, columns=["  Company ", "Head  Office"]).columns == ["Company", "Head Office"]
