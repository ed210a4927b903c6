"""Diagnostics that point at the user's source: `file:line:col: error: message`.

The parser here stamps every operation it reads with a `FileLineColLoc`
(unless the text carries its own `loc(...)`), so verifier and pass errors can
name the line of the op at fault long after parsing; clones keep the location.
"""

from __future__ import annotations

import struct
from bisect import bisect_right
from collections.abc import Sequence
from pathlib import Path
from traceback import walk_tb

import xdsl
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Block, Operation
from xdsl.parser import ForwardDeclaredValue
from xdsl.traits import IsolatedFromAbove, SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.lexer import Span

from xshard.xdsl_compat.parsing import XShardParser


class DiagnosticError(DiagnosticException):
    """An error about one operation; printed with that operation's location.

    `following` holds the errors found after it that do not depend on it (the verifier
    reports the first error of each function), printed after it, one a line.
    """

    def __init__(
        self, op: Operation | None, message: str, following: Sequence[DiagnosticError] = ()
    ):
        super().__init__(message)
        self.op = op
        self.message = message
        self.following = tuple(following)


def op_location(op: Operation | None) -> str | None:
    """`file:line:col` of `op`, or of its nearest located ancestor."""
    while op is not None:
        loc = op.location
        if isinstance(loc, FileLineColLoc):
            return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
        op = op.parent_op()
    return None


def format_error(op: Operation | None, message: str, fallback: str) -> str:
    return f"{op_location(op) or fallback}: error: {message}"


BAD_INPUT = (ParseError, DiagnosticException)
"""What xshard raises for bad input; any other exception is a bug in xshard."""


def error_line(err: ParseError | DiagnosticException, fallback: str) -> str:
    """What xshard's tools print for bad input: `file:line:col: error: message`, or
    `fallback: error: message` when nothing locates it; one line per error."""
    if isinstance(err, ParseError):
        return f"{err.span.get_location()}: error: {err.msg}"
    if isinstance(err, DiagnosticError):
        errors = (err, *err.following)
        return "\n".join(format_error(e.op, e.message, fallback) for e in errors)
    message = str(err.args[0]) if err.args else type(err).__name__
    return f"{fallback}: error: {message}"


class LocatingParser(XShardParser):
    """xshard's parser (`XShardParser`), recording where each operation starts.

    An attribute that fails its own verifier while being parsed is reported as
    a parse error at the operation that holds it.
    """

    line_offset: int = 0
    """Lines before this chunk in the input file (for `--split-input-file`)."""

    _line_starts: list[int] | None = None

    def _line_col(self, span: Span) -> tuple[int, int]:
        """1-based line and column of `span`, by bisecting a table of line starts.

        `Span.get_location` counts the newlines from the start of the input on
        every call, which makes locating every op quadratic in the file's size.
        """
        if self._line_starts is None:
            text, newline = span.input.content, span.input.newline
            starts = [0]
            at = text.find(newline)  # pyright: ignore[reportArgumentType]
            while at != -1:
                starts.append(at + 1)
                at = text.find(newline, at + 1)  # pyright: ignore[reportArgumentType]
            self._line_starts = starts
        line = bisect_right(self._line_starts, span.start)
        return line, span.start - self._line_starts[line - 1] + 1

    def parse_operation(self) -> Operation:
        start: Span = self._current_token.span
        try:
            op = super().parse_operation()
        except VerifyException as err:
            raise ParseError(start, str(err).split("\n")[0]) from err
        except _XDSL_SLIPS as err:
            if not _xdsl_fault(err):
                raise
            # an xDSL op's custom parser storing what it read without checking it
            # (`llvm.insertvalue %a, %s[18446744073709551616]`): bad input, not a bug
            raise ParseError(start, f"malformed operation: {err}") from err
        self._check_operands_defined_outside(op, start)
        if not isinstance(op.location, FileLineColLoc):
            line, col = self._line_col(start)
            op.location = FileLineColLoc(
                StringAttr(start.input.name), IntAttr(line + self.line_offset), IntAttr(col)
            )
        return op

    def _check_operands_defined_outside(self, op: Operation, start: Span) -> None:
        """An op whose parser resolves its operands before parsing its regions keeps a
        forward reference that a block argument of its own region defined meanwhile
        (xDSL then replaces the uses of the reference, of which the op is not one yet):
        the value was never declared where the op uses it."""
        pending = {id(v) for refs in self.forward_ssa_references.values() for v in refs.values()}
        for operand in op.operands:
            if isinstance(operand, ForwardDeclaredValue) and id(operand) not in pending:
                raise ParseError(start, "use of undeclared SSA value name")


_XSHARD = Path(__file__).parent
_XSHARD_WRAPPERS = (Path(__file__), _XSHARD / "xdsl_compat")
_XDSL = Path(xdsl.__file__).parent
_STDLIB = Path(struct.__file__).parent
_XDSL_SLIPS = (ValueError, IndexError, KeyError, OverflowError, struct.error)
"""What xDSL's own parsers and verifiers raise on input they should have refused."""


def _xdsl_fault(err: Exception) -> bool:
    """Whether `err` was raised by xDSL's code (or the standard library it called), not
    xshard's: it was raised in one of them, and no frame below the one catching it is
    xshard's, this module and the wrappers in xshard/xdsl_compat/ aside."""
    if not isinstance(err, _XDSL_SLIPS) and type(err) is not Exception:
        return False
    below = [Path(frame.f_code.co_filename) for frame, _ in walk_tb(err.__traceback__)][1:]
    if any(
        path.is_relative_to(_XSHARD) and not any(path.is_relative_to(w) for w in _XSHARD_WRAPPERS)
        for path in below
    ):
        return False
    return bool(below) and (
        below[-1].is_relative_to(_XDSL)
        or (below[-1].is_relative_to(_STDLIB) and "site-packages" not in below[-1].parts)
    )


def verify_located(op: Operation) -> None:
    """Verify `op` and everything nested, raising a located `DiagnosticError`.

    Symbol tables are checked for duplicate names first, and grids (symbols without
    regions) next, since other ops' verifiers read them. Then each op is verified after
    the ops it holds; an op isolated from above (a function) does not depend on its
    siblings, so the first error in each is reported, the later ones as `following`.
    """
    first = _symbol_error(op)
    errors = [first] if first else _nested_errors(op)
    if errors:
        raise DiagnosticError(errors[0].op, errors[0].message, errors[1:])


def _verify_one(op: Operation) -> DiagnosticError | None:
    try:
        op.verify(verify_nested_ops=False)
    except VerifyException as err:
        return DiagnosticError(op, str(err))
    except Exception as err:  # an xDSL verifier reading what it has not checked yet
        if not (type(op).__module__.startswith("xdsl.") and _xdsl_fault(err)):
            raise
        return DiagnosticError(op, f"'{op.name}' op is invalid: {err}")
    return None


def _symbol_error(op: Operation) -> DiagnosticError | None:
    """A duplicate symbol, at its second definition, or the first invalid grid."""
    for table in op.walk():
        if not table.has_trait(SymbolTable) or len(table.regions) != 1:
            continue
        seen: set[str] = set()
        for block in table.regions[0].blocks:
            for symbol in block.ops:
                name = symbol.get_attr_or_prop("sym_name")
                if not isinstance(name, StringAttr):
                    continue
                if name.data in seen:
                    return DiagnosticError(symbol, f"redefinition of symbol named '{name.data}'")
                seen.add(name.data)
    for symbol in op.walk():
        if not symbol.regions and symbol.has_trait(SymbolOpInterface):
            if error := _verify_one(symbol):
                return error
    return None


def _nested_errors(op: Operation) -> list[DiagnosticError]:
    found: list[DiagnosticError] = []
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                errors = _nested_errors(inner)
                found += errors
                if errors and not inner.has_trait(IsolatedFromAbove):
                    return found
            if not found and not isinstance(op, ModuleOp) and (error := _use_before_def(block)):
                return [error]
    if found:
        return found
    error = _verify_one(op)
    return [error] if error else []


def _use_before_def(block: Block) -> DiagnosticError | None:
    """A use, in `block` or nested in it, of a value an op of `block` defines at or after
    the using op: xDSL's parser takes such forward references, MLIR's verifier does not.
    (A module's body is a graph region, where order does not matter.)"""
    position = {inner: i for i, inner in enumerate(block.ops)}
    for i, inner in enumerate(block.ops):
        for user in inner.walk():
            for index, value in enumerate(user.operands):
                owner = value.owner
                if isinstance(owner, Operation) and position.get(owner, -1) >= i:
                    return DiagnosticError(user, f"operand #{index} does not dominate this use")
    return None
