"""An unterminated string literal is an error at once, not a hang.

Without this fix xDSL 0.74's lexer matches a string literal with
`"(?:[^"\\\n\v\f]+|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"`: a repeated group that itself
repeats, so on a quote that is never closed on its line (or a string with a bad escape)
the regex tries every way of cutting the line into runs, 2**n of them for n characters.
`%0 = "test.op"() {a = "` followed by 60 characters never returns. With it, the same
language is first matched by a regex that reads each character one way (linear time);
only a literal that it accepts, which xDSL's regex then matches on its first path,
goes on to xDSL's lexer, and the others get xDSL's own parse error.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRLexer

from xshard.xdsl_compat._patch import patch

STRING_LITERAL = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')
"""xDSL's string literal, one character (or escape) per step."""


def _lex_string_literal(original: Callable[..., Any]) -> Callable[..., Any]:
    def lex_string_literal(self: MLIRLexer, start_pos: int) -> Any:
        if STRING_LITERAL.match(self.input.content, start_pos) is None:
            raise ParseError(
                Span(start_pos, self.pos, self.input),
                "End of file reached before closing string literal.",
            )
        return original(self, start_pos)

    return lex_string_literal


def apply() -> None:
    patch(MLIRLexer, "_lex_string_literal", _lex_string_literal)
