"""Where xshard and xDSL 0.74 disagree, in one place (docs/xdsl-compat.md).

Importing this package, which `import xshard` does, fixes bugs in xDSL for the whole
process: each turns a crash, a misread of valid MLIR or an accepted invalid program
into what MLIR does, one module per fix, and none changes how xDSL parses or prints a
program it already handled right (tests/test_xdsl_compat.py holds that).

What is xshard's choice rather than an xDSL bug stays in xshard's own classes:
`printing.XShardPrinter` prints results as mlir-opt does (`%0:2`), and
`parsing.XShardParser` bounds the size of dense literals.
"""

from xshard.xdsl_compat import (
    affine_products,
    builtin_literals,
    custom_syntax_integers,
    dense_splat,
    hex_float_elements,
    op_parsing,
    string_literals,
    verifiers,
)

FIXES = (
    hex_float_elements,
    dense_splat,
    builtin_literals,
    custom_syntax_integers,
    op_parsing,
    verifiers,
    affine_products,
    string_literals,
)
"""The modules whose `apply()` patches xDSL, in the order they are applied."""


def apply() -> None:
    """Apply every fix in `FIXES`; applying one again changes nothing."""
    for fix in FIXES:
        fix.apply()


apply()
