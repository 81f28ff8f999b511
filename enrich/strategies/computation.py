"""`computation`: a formula over the row's columns, evaluated safely (spec N4).

``{Price} * {Quantity}`` is evaluated by :mod:`enrich.safe_eval`: placeholders
become variables bound to the row's values (a cell never becomes code).
A formula beyond the safe subset goes to the LLM when one is configured;
without one it is a bad formula, refused before any row runs.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Mapping

from cikb.enrich.base import (
    EnrichContext,
    RowInput,
    RowStrategy,
    answer_step,
    register_strategy,
)
from cikb.enrich.models import RowStep
from cikb.enrich.safe_eval import (
    FormulaEvalError,
    UnsafeFormulaError,
    Value,
    format_value,
    parse_formula,
    safe_eval,
)
from cikb.enrich.template import PLACEHOLDER, check_template, placeholders
from cikb.prompts import load_prompt

from cikb.core.errors import BadInputError

_CELL_NUMBER = re.compile(r"-?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?")


def bind_formula(formula: str, row: Mapping[str, str]) -> tuple[str, dict[str, Value]]:
    """``'{Price} * 2'`` -> ``('_c0 * 2', {'_c0': 12.5})``: each placeholder becomes a variable (case-insensitive)."""
    by_lower = {k.strip().lower(): v for k, v in row.items()}
    names: dict[str, str] = {}
    variables: dict[str, Value] = {}

    def bind(match: re.Match[str]) -> str:
        key = match.group(1).strip().lower()
        if key not in names:
            names[key] = f"_c{len(names)}"
            variables[names[key]] = cell_value(by_lower.get(key, ""))
        return names[key]

    return PLACEHOLDER.sub(bind, formula), variables


def cell_value(text: str | None) -> Value:
    """A cell as a formula sees it: a number when it reads as one ('1,200', '$3.50', '1e3'), else its text ('12 USD',
    '10%', 'N/A'), which arithmetic refuses."""
    stripped = (text or "").strip()
    bare = stripped.lstrip("$€£¥₹").strip()
    if _CELL_NUMBER.fullmatch(bare):
        number = bare.replace(",", "")
        return float(number) if any(c in number for c in ".eE") else int(number)  # '1e3' as a spreadsheet reads it
    return stripped


class ComputationStrategy(RowStrategy):
    name = "computation"
    display_name = "Computation"
    max_steps = 1
    needs_identity = False

    def validate_params(self, params: dict, ctx: EnrichContext) -> None:
        formula = params.get("formula")
        if not isinstance(formula, str) or not formula.strip():
            raise BadInputError("computation needs a formula (e.g. --formula '{Price} * {Quantity}')")
        check_template(formula, ctx.columns)
        expression, variables = bind_formula(formula, {c: "0" for c in ctx.columns})
        try:
            parse_formula(expression, frozenset(variables))
        except UnsafeFormulaError as err:
            if ctx.llm is None:
                raise BadInputError(f"bad formula {formula!r}: {err} (no LLM is configured to compute it)") from None

    async def execute_one(self, row: RowInput, params: dict, ctx: EnrichContext) -> AsyncIterator[RowStep]:
        formula = params["formula"]
        expression, variables = bind_formula(formula, row.data)
        try:
            value = safe_eval(expression, variables)
        except UnsafeFormulaError as err:
            if ctx.llm is None:
                yield RowStep(type="error", detail=f"bad formula: {err}")
                yield answer_step(None, "none", answered_by="none")
                return
            async for step in _llm_compute(formula, row, ctx):
                yield step
            return
        except FormulaEvalError as err:
            yield RowStep(type="error", detail=str(err), data={"formula": formula})
            yield answer_step(None, "none", answered_by="none")
            return
        text = format_value(value)
        yield RowStep(type="compute", detail=f"{formula} = {text}", data={"formula": formula, "variables": _shown(variables, formula)})
        yield answer_step(text, "high", answered_by="compute")


def _shown(variables: dict[str, Value], formula: str) -> dict[str, Value]:
    return {name: variables[f"_c{i}"] for i, name in enumerate(dict.fromkeys(p.lower() for p in placeholders(formula)))}


async def _llm_compute(formula: str, row: RowInput, ctx: EnrichContext) -> AsyncIterator[RowStep]:
    values = "\n".join(f"{k}: {v}" for k, v in row.data.items())
    messages = [
        {"role": "system", "content": load_prompt("enrich_compute")},
        {"role": "user", "content": f"Row values:\n{values}\n\nFormula: {formula}"},
    ]
    yield RowStep(type="compute", detail="formula beyond the safe evaluator: asking the LLM", data={"formula": formula})
    try:
        reply = await asyncio.to_thread(ctx.llm, "enrich:computation", messages)  # type: ignore[arg-type]
    except Exception as err:
        yield RowStep(type="error", detail=f"LLM failed: {err}")
        yield answer_step(None, "none", answered_by="none")
        return
    yield answer_step(reply.strip(), "medium", answered_by="llm")


register_strategy(ComputationStrategy())
