"""Diagnostics that point at the user's source: `file:line:col: error: message`.

The parser here stamps every operation it reads with a `FileLineColLoc`
(unless the text carries its own `loc(...)`), so verifier and pass errors can
name the line of the op at fault long after parsing; clones keep the location.
"""

from __future__ import annotations

from bisect import bisect_right

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.lexer import Span


class DiagnosticError(DiagnosticException):
    """An error about one operation; printed with that operation's location."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op
        self.message = message


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


class LocatingParser(Parser):
    """A parser that records where each operation starts.

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
        if not isinstance(op.location, FileLineColLoc):
            line, col = self._line_col(start)
            op.location = FileLineColLoc(
                StringAttr(start.input.name), IntAttr(line + self.line_offset), IntAttr(col)
            )
        return op


def verify_located(op: Operation) -> None:
    """Verify `op` and everything nested, innermost first, raising a located error."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                verify_located(inner)
    try:
        op.verify(verify_nested_ops=False)
    except VerifyException as err:
        raise DiagnosticError(op, str(err)) from err
