"""Reading an input file as mlir-opt reads it, so that any bytes end in a module or in a
located error.

MLIR's lexer works on bytes: it skips any byte in a comment, keeps any byte in a string
literal, and refuses any other byte that starts no token (`unexpected character`, at
the byte), and a file holding no operation is an empty module. xDSL's parser takes
text, so a file that is not UTF-8 was a `UnicodeDecodeError`, and an empty one an
error. Here bytes that are not UTF-8 are decoded as lone surrogates, which xDSL's lexer
refuses as it refuses any unexpected character, and which a string literal holds as the
`\\XX` escapes of the same bytes (columns after such a string on its line count the
escapes). One difference remains: mlir-opt takes a NUL byte outside strings and
comments for whitespace, xshard reports it as an unexpected character.
"""

from __future__ import annotations

import re
import unicodedata

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import ParseError

from xshard.diagnostics import LocatingParser

_RAW_BYTE = re.compile("[\udc80-\udcff]")
"""A byte that is not UTF-8, as `surrogateescape` decodes it."""
_NO_OPERATION = "Could not parse entire input!"
_STRING_OR_COMMENT = re.compile(r'//[^\n]*|"(?:[^"\\\n]|\\.)*"?')
"""A comment, or a string literal up to its closing quote or its line's end: what MLIR's
lexer reads through, scanned left to right (a quote in a comment starts no string)."""
_ESCAPE_OR_RAW_BYTE = re.compile(rf"\\.|{_RAW_BYTE.pattern}", re.S)


def _escape_raw_bytes(literal: re.Match[str]) -> str:
    """A string literal's bytes that are not UTF-8 as `\\XX`; a backslash before one stays
    (an escape no lexer takes)."""
    return _ESCAPE_OR_RAW_BYTE.sub(
        lambda m: m[0] if len(m[0]) == 2 else f"\\{ord(m[0]) - 0xDC00:02X}", literal[0]
    )


def decode(data: bytes) -> str:
    """The text of `data`. Bytes that are not UTF-8 become their `\\XX` escapes in string
    literals (the same bytes to MLIR); the others are left for the lexer to skip (in a
    comment) or refuse, where the parser, which stops at the first error, meets them."""
    try:
        return data.decode()
    except UnicodeDecodeError:
        text = data.decode(errors="surrogateescape")
    return _STRING_OR_COMMENT.sub(
        lambda m: _escape_raw_bytes(m) if m[0].startswith('"') else m[0], text
    )


def read_module(
    ctx: Context,
    data: bytes,
    name: str,
    *,
    line_offset: int = 0,
    implicit_module: bool = True,
) -> ModuleOp:
    """Parse `data` (a whole file, or one `--split-input-file` chunk after
    `line_offset` lines) as xshard-opt does; bad input raises a located `ParseError`."""
    text = decode(data)
    parser = LocatingParser(ctx, text, name)
    parser.line_offset = line_offset
    try:
        return parser.parse_module(implicit_module)
    except ParseError as err:
        # xDSL refuses a file of no operation (at its end); mlir-opt reads an empty module
        if implicit_module and err.span.start >= len(text) and err.msg == _NO_OPERATION:
            return ModuleOp([])
        raise


def printable(message: str) -> str:
    """`message` with the characters a terminal does not show (control and format
    characters, such as a NUL or a byte order mark) and undecoded bytes, which an error
    quoting the input may hold, as Python escapes; safe to print on any stream."""
    return "".join(map(_printable, message))


def _printable(c: str) -> str:
    if c in "\n\t" or unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn"):
        return c
    if _RAW_BYTE.match(c):
        return f"\\x{ord(c) - 0xDC00:02x}"
    return ascii(c)[1:-1]
