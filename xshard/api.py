"""The few calls a compiler embedding xshard needs, as `xshard-opt` does them
(docs/api.md): text to a verified module, a pipeline applied, the module printed.

A module is xDSL's `ModuleOp` throughout: these only save writing out the context,
the located parser, the pass registry and the verifier that `xshard-opt` uses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.transforms import get_all_passes
from xdsl.utils.exceptions import ArgSpecParseError, ParseError

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser, verify_located
from xshard.transforms import get_xshard_passes
from xshard.xdsl_compat.printing import XShardPrinter


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass `xshard-opt -p` takes, by name, each a factory of its class: xDSL's,
    and xshard's, which win a clash of names (`canonicalize`) as in `xshard-opt`."""
    return {**get_all_passes(), **get_xshard_passes()}


def parse(text: str, name: str = "<input>", *, ctx: Context | None = None) -> ModuleOp:
    """`text` parsed and verified as `xshard-opt` reads a file named `name`.

    Bad input raises `xdsl.utils.exceptions.ParseError` or
    `xshard.diagnostics.DiagnosticError` (together `xshard.diagnostics.BAD_INPUT`);
    every op is stamped `name:line:col`, so an error a pass raises later still names
    its line, and `xshard.diagnostics.error_line(err, name)` gives the tools' message.
    """
    module = LocatingParser(ctx or xshard_context(), text, name).parse_module()
    verify_located(module)
    return module


def apply(
    module: ModuleOp, pipeline: str | Sequence[ModulePass], *, ctx: Context | None = None
) -> ModuleOp:
    """Run `pipeline` on `module` in place and verify the result, as
    `xshard-opt -p PIPELINE` does; returns `module`, for chaining.

    `pipeline` is `-p`'s text (`"sharding-propagation{traversal=forward},shard-partition"`)
    or pass objects (`[ShardingPropagationPass(traversal="forward"), ShardPartitionPass()]`).
    A bad pipeline text raises `ValueError` (xDSL raises three kinds, one of them
    not an `Exception`); a pass refusing the program, a located `DiagnosticError`.
    """
    if isinstance(pipeline, str):
        try:
            passes = PassPipeline.parse_spec(available_passes(), pipeline)
        except (ValueError, ParseError, ArgSpecParseError) as err:
            reason = str(err).removeprefix("Error parsing pass pipeline specification:")
            raise ValueError(f"bad pass pipeline '{pipeline}': {reason.strip()}") from err
    else:
        passes = PassPipeline(tuple(pipeline))
    passes.apply(ctx or xshard_context(), module)
    verify_located(module)
    return module


def print_module(module: ModuleOp, *, generic: bool = False, stream: IO[str] | None = None):
    """Print `module` as `xshard-opt` prints it (with `generic`, as
    `--print-op-generic`, the form `mlir-opt` reads whatever its dialects), to `stream`
    (default: standard output). An op's unnamed results print as one group (`%0:2`), as
    mlir-opt prints them; `str(module)`, xDSL's printing, lists them (`%0, %1`)."""
    XShardPrinter(stream=stream, print_generic_format=generic).print_op(module)
    print(file=stream)
