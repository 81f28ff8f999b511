"""Safe evaluation of column formulas (spec N4) by walking the AST.

What a formula may contain, and nothing else: numbers, strings, column
values (bound as variables, never pasted into the source), ``+ - * / // % **`` on
numbers (texts are only joined, with ``+``), unary minus/plus, comparisons, and calls of ``abs round min max int float str
len``. Anything else -- attribute access, subscripts, names that are neither a
column nor one of those functions, lambdas, comprehensions, f-strings,
keywords, starred arguments -- is refused before anything is evaluated.

Every intermediate result is bounded *before* it is computed: integers to
``MAX_INT_BITS`` bits, strings to ``MAX_STR_LEN`` characters, ``round`` digits
to ``MAX_ROUND_DIGITS``; so ``9**9**9``, ``'x' * 10**9`` or ``'%999999999d' % 1``
fail at once instead of hanging or exhausting memory.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Mapping

from cikb.core.errors import BadInputError

MAX_SOURCE_LEN = 2_000
MAX_NODES = 400
MAX_INT_BITS = 4_096
MAX_STR_LEN = 10_000
MAX_ROUND_DIGITS = 100

Value = int | float | str | bool


class UnsafeFormulaError(BadInputError):
    """The formula uses something the safe evaluator does not allow (or is not a formula at all)."""


class FormulaEvalError(BadInputError):
    """The formula is allowed, but failed on this row's values (division by zero, a text where a number was needed...)."""


def _check_size(value: object) -> Value:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if value.bit_length() > MAX_INT_BITS:
            raise FormulaEvalError("number too large")
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, str):
        if len(value) > MAX_STR_LEN:
            raise FormulaEvalError("text too long")
        return value
    raise FormulaEvalError(f"unsupported result type {type(value).__name__}")


def _int_bits(value: object) -> int:
    if isinstance(value, bool):
        return 1
    if isinstance(value, int):
        return max(value.bit_length(), 1)
    return 0


def _guard_pow(base: Value, exp: Value) -> None:
    if isinstance(base, str) or isinstance(exp, str):
        raise FormulaEvalError("** needs numbers")
    if isinstance(base, int) and isinstance(exp, int) and exp > 0:
        if abs(base) > 1 and exp * math.log2(abs(base)) > MAX_INT_BITS:
            raise FormulaEvalError("number too large")
    elif isinstance(base, int) and isinstance(exp, float):
        if _int_bits(base) > 1024:
            raise FormulaEvalError("number too large")


def _guard_mul(left: Value, right: Value) -> None:
    if isinstance(left, str) and isinstance(right, int):
        if len(left) * max(right, 0) > MAX_STR_LEN:
            raise FormulaEvalError("text too long")
    elif isinstance(right, str) and isinstance(left, int):
        if len(right) * max(left, 0) > MAX_STR_LEN:
            raise FormulaEvalError("text too long")
    elif isinstance(left, int) and isinstance(right, int):
        if _int_bits(left) + _int_bits(right) > MAX_INT_BITS:
            raise FormulaEvalError("number too large")


def _guard_add(left: Value, right: Value) -> None:
    if isinstance(left, str) and isinstance(right, str) and len(left) + len(right) > MAX_STR_LEN:
        raise FormulaEvalError("text too long")


def _guard_mod(left: Value, right: Value) -> None:
    # str % x is printf-style formatting: '%999999999d' % 1 would build a gigabyte.
    if isinstance(left, str) or isinstance(right, str):
        raise FormulaEvalError("% needs numbers")


_BINOPS: dict[type, tuple[Callable[[Value, Value], Value], Callable[[Value, Value], None] | None]] = {
    ast.Add: (operator.add, _guard_add),
    ast.Sub: (operator.sub, None),
    ast.Mult: (operator.mul, _guard_mul),
    ast.Div: (operator.truediv, None),
    ast.FloorDiv: (operator.floordiv, None),
    ast.Mod: (operator.mod, _guard_mod),
    ast.Pow: (operator.pow, _guard_pow),
}
_UNARY: dict[type, Callable[[Value], Value]] = {ast.USub: operator.neg, ast.UAdd: operator.pos}
_COMPARE: dict[type, Callable[[Value, Value], bool]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
    ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
}


def _safe_round(*args: Value) -> Value:
    if not 1 <= len(args) <= 2:
        raise FormulaEvalError("round takes 1 or 2 arguments")
    if len(args) == 2:
        digits = args[1]
        if not isinstance(digits, int) or abs(digits) > MAX_ROUND_DIGITS:
            raise FormulaEvalError(f"round's digits must be an integer within ±{MAX_ROUND_DIGITS}")
    if not isinstance(args[0], (int, float)):
        raise FormulaEvalError("round needs a number")
    return round(*args)


def _safe_len(value: Value) -> int:
    if not isinstance(value, str):
        raise FormulaEvalError("len needs a text")
    return len(value)


def _safe_str(value: Value) -> str:
    return format_value(value)


def _safe_minmax(fn: Callable) -> Callable[..., Value]:
    def call(*args: Value) -> Value:
        if not args:
            raise FormulaEvalError(f"{fn.__name__} needs at least one argument")
        return fn(*args) if len(args) > 1 else fn(args[0])

    return call


def _one_arg(fn: Callable[[Value], Value], name: str) -> Callable[..., Value]:
    def call(*args: Value) -> Value:
        if len(args) != 1:
            raise FormulaEvalError(f"{name} takes one argument")
        if isinstance(args[0], str) and len(args[0]) > 100 and name in ("int", "float"):
            raise FormulaEvalError(f"{name}: text too long to be a number")
        return fn(args[0])

    return call


FUNCTIONS: Mapping[str, Callable[..., Value]] = {
    "abs": _one_arg(abs, "abs"),
    "round": _safe_round,
    "min": _safe_minmax(min),
    "max": _safe_minmax(max),
    "int": _one_arg(int, "int"),
    "float": _one_arg(float, "float"),
    "str": _one_arg(_safe_str, "str"),
    "len": _one_arg(_safe_len, "len"),
}


def parse_formula(source: str, variables: set[str] | frozenset[str] = frozenset()) -> ast.Expression:
    """Parse and check a formula; raise UnsafeFormulaError for anything outside the allowed subset."""
    if not isinstance(source, str) or len(source) > MAX_SOURCE_LEN:
        raise UnsafeFormulaError(f"formula longer than {MAX_SOURCE_LEN} characters")
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as err:
        raise UnsafeFormulaError(f"not a formula: {getattr(err, 'msg', None) or err}") from None
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_NODES:
        raise UnsafeFormulaError(f"formula has more than {MAX_NODES} parts")
    for node in nodes:
        _check_node(node, variables)
    return tree


_ALLOWED_NODES = (
    ast.Expression, ast.Constant, ast.Name, ast.Load, ast.BinOp, ast.UnaryOp, ast.Compare, ast.Call,
    *_BINOPS, *_UNARY, *_COMPARE,
)


def _check_node(node: ast.AST, variables: set[str] | frozenset[str]) -> None:
    if not isinstance(node, _ALLOWED_NODES):
        raise UnsafeFormulaError(f"not allowed in a formula: {type(node).__name__}")
    if isinstance(node, ast.Constant) and type(node.value) not in (int, float, str, bool):
        raise UnsafeFormulaError(f"not allowed in a formula: constant {node.value!r}")
    if isinstance(node, ast.Name) and node.id not in variables and node.id not in FUNCTIONS:
        raise UnsafeFormulaError(f"unknown name in formula: {node.id}")
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS or node.func.id in variables:
            raise UnsafeFormulaError("only abs, round, min, max, int, float, str and len can be called")
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise UnsafeFormulaError("function calls take plain positional arguments only")


def safe_eval(source: str, variables: Mapping[str, Value] | None = None) -> Value:
    """Evaluate an allowed formula with the given variables; raises UnsafeFormulaError or FormulaEvalError."""
    variables = dict(variables or {})
    tree = parse_formula(source, frozenset(variables))
    try:
        return _check_size(_eval(tree.body, variables))
    except (ZeroDivisionError, OverflowError, TypeError, ValueError, RecursionError, MemoryError) as err:
        raise FormulaEvalError(f"formula failed: {err}") from None


def _eval(node: ast.AST, variables: Mapping[str, Value]) -> Value:
    if isinstance(node, ast.Constant):
        return _check_size(node.value)
    if isinstance(node, ast.Name):
        if node.id in variables:
            return variables[node.id]
        raise UnsafeFormulaError(f"{node.id} is a function, not a value")
    if isinstance(node, ast.UnaryOp):
        operand = _eval(node.operand, variables)
        if isinstance(operand, str):
            raise FormulaEvalError("unary minus needs a number")
        return _check_size(_UNARY[type(node.op)](operand))
    if isinstance(node, ast.BinOp):
        return _eval_binop(node, variables)
    if isinstance(node, ast.Compare):
        return _eval_compare(node, variables)
    if isinstance(node, ast.Call):
        args = [_eval(arg, variables) for arg in node.args]
        return _check_size(FUNCTIONS[node.func.id](*args))  # type: ignore[union-attr]
    raise UnsafeFormulaError(f"not allowed in a formula: {type(node).__name__}")


def _eval_binop(node: ast.BinOp, variables: Mapping[str, Value]) -> Value:
    left = _eval(node.left, variables)
    right = _eval(node.right, variables)
    fn, guard = _BINOPS[type(node.op)]
    # Text is only joined: '12 USD' * 2 repeated the cell ("12 USD12 USD") and '10%' % x formatted it, results no
    # table wants. A cell that is not a number fails its row, named.
    text = next((v for v in (left, right) if isinstance(v, str)), None)
    if text is not None and not (isinstance(node.op, ast.Add) and isinstance(left, str) and isinstance(right, str)):
        raise FormulaEvalError(f"{text[:40]!r} is not a number")
    if guard is not None:
        guard(left, right)
    result = fn(left, right)
    if isinstance(result, complex):
        raise FormulaEvalError("complex result")
    return _check_size(result)


def _eval_compare(node: ast.Compare, variables: Mapping[str, Value]) -> bool:
    left = _eval(node.left, variables)
    for op, comparator in zip(node.ops, node.comparators):
        right = _eval(comparator, variables)
        if not _COMPARE[type(op)](left, right):
            return False
        left = right
    return True


def format_value(value: Value) -> str:
    """A cell's text for a result: 'true'/'false', integers plainly, floats without float noise."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isfinite(value) and value == int(value) and abs(value) < 1e16:
            return str(int(value))
        return format(value, ".12g")
    return value
