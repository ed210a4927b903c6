"""`xshard-opt`: xDSL's opt driver with xshard's dialects, passes and diagnostics.

It takes every flag `xdsl-opt` takes. Bad input never ends in a traceback: a
parse error, a verifier failure or a pass that cannot handle an op prints
`file:line:col: error: message` on stderr and exits 1. With
`--verify-diagnostics` (verifier and pass errors) or `--parsing-diagnostics`
(parse errors) the message goes to stdout and the run goes on, exit 0, which is
how the lit tests check messages; a chunk carrying `// expected-error {{...}}`
annotations is checked against them instead, as mlir-opt does (a miss exits 1,
`xshard/cli/expected_diagnostics.py`). The module is verified after parsing and after
the last pass; `--verify-each` verifies it after every pass too. More than one
error is reported where they are
independent: with `--split-input-file`, each chunk's (as mlir-opt does); in one
module, the verifier's first error in each function.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Sequence
from io import BytesIO
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.universe import Universe
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from xshard.cli.expected_diagnostics import expectations, mismatches, reported
from xshard.cli.internal_error import report_internal_error
from xshard.diagnostics import LocatingParser, error_line, verify_located
from xshard.dialects import get_xshard_dialects
from xshard.transforms import get_xshard_passes


class _Failure(Exception):
    """A diagnostic was printed and the run must exit non-zero."""


class XShardOptMain(xDSLOptMain):
    version_format = "xshard-opt (xdsl {xdsl_version})"

    def __init__(self, args: Sequence[str] | None = None):
        self._chunk_offset = 0
        self._failed = False
        super().__init__(description="xshard modular optimizer driver", args=args)

    def register_all_dialects(self) -> None:
        dialects = dict(Universe.get_multiverse().all_dialects)
        dialects.update(get_xshard_dialects())
        for name, factory in dialects.items():
            self.ctx.register_dialect(name, factory)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--verify-each",
            action="store_true",
            help="verify the module after every pass (default: after parsing and after "
            "the last pass only, as mlir-opt with --verify-each=0)",
        )

    def register_all_passes(self) -> None:
        super().register_all_passes()
        for name, factory in get_xshard_passes().items():
            self.register_pass(name, factory)

    def register_all_frontends(self) -> None:
        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            parser = LocatingParser(self.ctx, io.read(), self.get_input_name())
            parser.line_offset = self._chunk_offset
            return parser.parse_module(not self.args.no_implicit_module)

        self.available_frontends["mlir"] = parse_mlir

    def setup_pipeline(self) -> None:
        timer = time.perf_counter()

        def between_passes(
            previous: ModulePass | None, module: ModuleOp, following: ModulePass | None
        ) -> None:
            nonlocal timer
            if self.args.time_passes and previous is not None:
                print(f"Pass {previous.name} took {time.perf_counter() - timer} seconds")
            last = previous is not None and following is None
            if not self.args.disable_verify and (last or (previous and self.args.verify_each)):
                verify_located(module)
            if previous and following and self.args.print_between_passes:
                print(f"IR after {previous.name}:")
                Printer(stream=sys.stdout).print_op(module)
                print("\n\n\n")
            timer = time.perf_counter()

        try:
            self.pipeline = PassPipeline.parse_spec(
                self.available_passes, self.args.passes, between_passes
            )
        except (ValueError, ParseError, ArgSpecParseError) as err:  # a usage error
            reason = str(err).removeprefix("Error parsing pass pipeline specification:").strip()
            print(f"xshard-opt: error: bad pass pipeline '{self.args.passes}': {reason}",
                  file=sys.stderr)
            raise _Failure from err

    def _report(self, text: str, expected: bool) -> None:
        """Print a diagnostic: to stdout when the flags say it is `expected`, else to
        stderr, and the run will fail once every chunk has been processed."""
        if expected:
            print(text)
        else:
            print(text, file=sys.stderr)
            self._failed = True

    def _process(self, chunk: IO[bytes], extension: str, offset: int, out: IO[str]) -> None:
        self._chunk_offset = offset
        text = chunk.read()
        chunk.close()
        name = self.get_input_name()
        expected = []
        if self.args.verify_diagnostics:
            expected = expectations(text.decode(errors="replace"), offset)
        found = ""
        try:
            module = self.parse_chunk(BytesIO(text), extension, offset)
            if module is None:
                return
            if not self.args.disable_verify:
                verify_located(module)
            self.apply_passes(module)
            out.write(self.output_resulting_program(module))
        except ParseError as err:
            err.span = dataclasses.replace(err.span, line_offset=offset)
            found = error_line(err, name)
            if not expected:
                self._report(found, self.args.parsing_diagnostics)
        except DiagnosticException as err:
            found = error_line(err, name)
            if not expected:
                self._report(found, self.args.verify_diagnostics)
        if expected and (problems := mismatches(expected, reported(found), name)):
            for problem in problems:
                self._report(problem, False)

    def run(self) -> None:
        try:
            chunks, extension = self.prepare_input()
        except (OSError, ValueError) as err:
            print(f"xshard-opt: error: {err}", file=sys.stderr)
            raise _Failure from err
        out = self.prepare_output()
        try:
            for i, (chunk, offset) in enumerate(chunks):
                if i > 0:
                    out.write("// -----\n")
                self._process(chunk, extension, offset, out)
                out.flush()
        finally:
            if out is not sys.stdout:
                out.close()
        if self._failed:
            raise _Failure


def main(argv: Sequence[str] | None = None) -> None:
    try:
        XShardOptMain(args=argv).run()
    except _Failure:
        sys.exit(1)
    except Exception as err:  # a bug in xshard, not bad input: say so in one line
        sys.exit(report_internal_error("xshard-opt", err))


if __name__ == "__main__":
    main()
