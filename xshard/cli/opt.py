"""`xshard-opt`: xDSL's opt driver with xshard's dialects, passes and diagnostics.

It takes every flag `xdsl-opt` takes, and reads any input as mlir-opt does
(`xshard/cli/source.py`). Bad input never ends in a traceback: a parse error, a
verifier failure or a pass that cannot handle an op prints
`file:line:col: error: message` on stderr and exits 1; so do a bad flag, an unknown
pass or option (with the closest names) and a file that cannot be opened.
`--help` lists xshard's passes by phase, `--list-passes` xDSL's too
(`xshard/cli/pass_list.py`).

`--verify-diagnostics` checks a file that carries `// expected-error {{...}}`
annotations as mlir-opt does: every chunk, annotated or not, must report exactly what
it expects, and a miss exits 1 (`xshard/cli/expected_diagnostics.py`). In a file with
no annotation at all, verifier and pass errors go to stdout instead and the run goes on
(exit 0), as `--parsing-diagnostics` does for parse errors: how xshard's lit tests check
messages with FileCheck. The module is verified after parsing and after the last pass;
`--verify-each` verifies it after every pass too. More than one error is reported
where they are independent: with `--split-input-file`, each chunk's (as mlir-opt
does); in one module, the verifier's first error in each function.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import sys
import time
from collections.abc import Sequence
from io import BytesIO
from typing import IO, Any, NoReturn

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.arg_spec import parse_pipeline
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from xshard.cli import pass_list
from xshard.cli.expected_diagnostics import Expected, expectations, mismatches, reported
from xshard.cli.internal_error import report_internal_error
from xshard.cli.source import printable, read_module
from xshard.context import xshard_dialects
from xshard.diagnostics import error_line, verify_located
from xshard.transforms import get_xshard_passes
from xshard.xdsl_compat.printing import XShardPrinter, mlir_target

_PROG = "xshard-opt"

_METAVARS = {"output_file": "FILE", "passes": "PIPELINE"}
_HELP = {
    "input_file": argparse.SUPPRESS,  # in the usage line
    "frontend": "the input's format; any file is read as MLIR",
    "disable_verify": "do not verify the module after parsing and the last pass",
    "allow_unregistered_dialect": "read ops of dialects xshard does not know, kept as they are",
    "no_implicit_module": "the input must be one builtin.module (none is added)",
    "target": "output format: mlir, the only one xshard emits",
    "output_file": "write the output to this file (default: stdout)",
    "passes": "the pass pipeline: 'NAME,NAME{option=value ...}' (passes below)",
    "print_between_passes": "print the IR after each pass",
    "time_passes": "print the time each pass takes",
    "verify_diagnostics": "check expected-error annotations as mlir-opt does, exit 1 on a "
    "miss; in a file with none, print the errors on stdout (exit 0)",
    "parsing_diagnostics": "print parse errors on stdout and go on (exit 0), for FileCheck",
    "split_input_file": "process each '// -----' chunk of the input on its own",
    "print_op_generic": "print ops in the generic form (what mlir-opt reads)",
    "print_no_properties": "print properties as attributes",
    "print_debuginfo": "print each op's location",
    "syntax_highlight": "color the output",
    "version": "print the version and exit",
    "shrink": "exit 0 on a ShrinkException (for shrinkray)",
}


class _Failure(Exception):
    """A diagnostic was printed and the run must exit non-zero."""


class _HelpFormatter(argparse.HelpFormatter):
    """One line per option where its help fits (`-o, --output-file FILE`, the value
    named once), so that `--help` and the passes fit on one screen."""

    def __init__(self, prog: str):
        super().__init__(prog, max_help_position=34, width=pass_list.WIDTH)

    def _format_action_invocation(self, action: argparse.Action) -> str:
        if not action.option_strings or action.nargs == 0:
            return super()._format_action_invocation(action)
        value = self._format_args(action, self._get_default_metavar_for_optional(action))
        return f"{', '.join(action.option_strings)} {value}"


class _ArgumentParser(argparse.ArgumentParser):
    """xDSL's driver builds a plain `ArgumentParser`; `XShardOptMain` turns it into this
    one: xshard's shorter option help, its passes in `--help`, and bad flags are bad
    input (exit 1, as in mlir-opt; 2 is xshard's code for its own bugs)."""

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        action.help = _HELP.get(action.dest, action.help)
        action.metavar = _METAVARS.get(action.dest, action.metavar)
        return action

    def format_help(self) -> str:
        return f"{super().format_help()}\n{pass_list.help_section()}"

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")


class _ListPasses(argparse.Action):
    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        print(pass_list.listing(), end="")
        parser.exit()


def _did_you_mean(word: str, names: Sequence[str], otherwise: str) -> str:
    close = difflib.get_close_matches(word, names, n=1)
    return f"; did you mean '{close[0]}'?" if close else otherwise


class XShardOptMain(xDSLOptMain):
    version_format = "xshard-opt (xdsl {xdsl_version})"

    def __init__(self, args: Sequence[str] | None = None):
        self._chunk_offset = 0
        self._failed = False
        super().__init__(description="", args=args)

    def register_all_dialects(self) -> None:
        for name, factory in xshard_dialects().items():
            self.ctx.register_dialect(name, factory)

    def register_all_targets(self) -> None:
        """Only MLIR, printed by xshard's printer (`%0:2`, as mlir-opt): xDSL's other
        targets (assembly, WGSL, CSL...) print dialects xshard's programs never hold."""
        self.available_targets["mlir"] = mlir_target

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.__class__ = _ArgumentParser
        arg_parser.prog = _PROG
        arg_parser.usage = f"{_PROG} [options] [input_file (default: stdin)]"
        arg_parser.formatter_class = _HelpFormatter
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--verify-each",
            action="store_true",
            help="verify after every pass, not only after the last",
        )
        arg_parser.add_argument(
            "--list-passes",
            action=_ListPasses,
            help="list xshard's passes by phase, then xDSL's, and exit",
        )

    def register_all_passes(self) -> None:
        super().register_all_passes()
        for name, factory in get_xshard_passes().items():
            self.register_pass(name, factory)

    def register_all_frontends(self) -> None:
        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            return read_module(
                self.ctx,
                io.read(),
                self.get_input_name(),
                line_offset=self._chunk_offset,
                implicit_module=not self.args.no_implicit_module,
            )

        self.available_frontends["mlir"] = parse_mlir

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        """Any file is MLIR, whatever its name, as for mlir-opt (xDSL picks a frontend
        by the extension and refuses the others)."""
        stream, _ = super().get_input_stream()
        return stream, "mlir"

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
                XShardPrinter(stream=sys.stdout).print_op(module)
                print("\n\n\n")
            timer = time.perf_counter()

        try:
            self.pipeline = PassPipeline.parse_spec(
                self.available_passes, self.args.passes, between_passes
            )
        except (ValueError, ParseError, ArgSpecParseError) as err:  # a usage error
            reason = (
                self._unknown_name(self.args.passes)
                or str(err).removeprefix("Error parsing pass pipeline specification:").strip()
            )
            print(
                f"{_PROG}: error: bad pass pipeline '{self.args.passes}': {reason}", file=sys.stderr
            )
            raise _Failure from err

    def _unknown_name(self, spec: str) -> str | None:
        """The first pass or option of `spec` that does not exist, with the closest
        existing name; None when all exist (the pipeline is wrong otherwise)."""
        try:
            specs = list(parse_pipeline(spec))
        except ArgSpecParseError:
            return None
        for given in specs:
            if given.name not in self.available_passes:
                return f"unknown pass '{given.name}'" + _did_you_mean(
                    given.name, list(self.available_passes), f" (see {_PROG} --list-passes)"
                )
            fields = dataclasses.fields(self.available_passes[given.name]())
            options = [f.name.replace("_", "-") for f in fields if f.init and f.name != "name"]
            for option in given.parameters:
                if option.replace("_", "-") not in options:
                    listed = f" (its options: {', '.join(options)})" if options else " (none)"
                    return f"pass '{given.name}' has no option '{option}'" + _did_you_mean(
                        option.replace("_", "-"), options, listed
                    )
        return None

    def _report(self, text: str, expected: bool) -> None:
        """Print a diagnostic: to stdout when the flags say it is `expected`, else to
        stderr, and the run will fail once every chunk has been processed."""
        if expected:
            print(printable(text))
        else:
            print(printable(text), file=sys.stderr)
            self._failed = True

    def _process(
        self, text: bytes, offset: int, expected: list[Expected] | None, out: IO[str]
    ) -> None:
        """One chunk; `expected` is None in printing mode, else what it must report."""
        self._chunk_offset = offset  # for the frontend
        name = self.get_input_name()
        found = ""
        try:
            module = self.parse_chunk(BytesIO(text), "mlir", offset)
            assert module is not None  # xshard's frontend returns a module or raises
            if not self.args.disable_verify:
                verify_located(module)
            self.apply_passes(module)
            out.write(self.output_resulting_program(module))
        except ParseError as err:
            err.span = dataclasses.replace(err.span, line_offset=offset)
            found = error_line(err, name)
            if expected is None:
                self._report(found, self.args.parsing_diagnostics)
        except DiagnosticException as err:
            found = error_line(err, name)
            if expected is None:
                self._report(found, self.args.verify_diagnostics)
        if expected is not None:
            for problem in mismatches(expected, reported(found), name):
                self._report(problem, False)

    def _read_chunks(self) -> list[tuple[bytes, int]]:
        try:
            chunks, _ = self.prepare_input()
        except OSError as err:
            name = self.args.input_file
            print(
                f"{_PROG}: error: cannot open input file '{name}': {err.strerror}", file=sys.stderr
            )
            raise _Failure from err
        read = []
        for chunk, offset in chunks:
            read.append((chunk.read(), offset))
            chunk.close()
        return read

    def _open_output(self) -> IO[str]:
        try:
            return self.prepare_output()
        except OSError as err:
            name = self.args.output_file
            print(
                f"{_PROG}: error: cannot open output file '{name}': {err.strerror}", file=sys.stderr
            )
            raise _Failure from err

    def run(self) -> None:
        chunks = self._read_chunks()
        # one annotation anywhere puts every chunk under mlir-opt's check
        expected = [expectations(text.decode(errors="replace"), offset) for text, offset in chunks]
        checking = self.args.verify_diagnostics and any(expected)
        out = self._open_output()
        try:
            for i, ((text, offset), wanted) in enumerate(zip(chunks, expected, strict=True)):
                if i > 0:
                    out.write("// -----\n")
                self._process(text, offset, wanted if checking else None, out)
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
        sys.exit(report_internal_error(_PROG, err))


if __name__ == "__main__":
    main()
