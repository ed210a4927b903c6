"""Fuzz xshard's front end: mutate the test corpus and check that every mutant ends
in a result or a located diagnostic, never in a crash, a hang or an unlocated error.

    python tools/fuzz_frontend.py [--mutants 10000] [--seed 0] [--jobs N]
        [--timeout 20] [--out /tmp/xshard-fuzz] [--json FILE] [--reduce]
        [--mutations boundary-number,replace-attribute,... | bytes]

The corpus is every `.mlir` under tests/filecheck, tests/e2e, tests/corpus and
examples, split on `// -----` as `--split-input-file` does. Each mutant is one chunk
with one to three mutations, token-level (`MUTATIONS`, the default) or byte-level
(`BYTE_MUTATIONS`, `--mutations bytes`: invalid UTF-8, NUL bytes, truncation, byte
flips and insertions), and goes through what `xshard-opt -p xshard-spmd` does, in a
pool of forked worker processes: read and parse the bytes
(`xshard.cli.source.read_module`), verify (`verify_located`), each phase of the default pipeline
(`SpmdPipelinePass.passes()`, verified after each) and printing. Its outcome is
classified as xshard-opt reports it (`xshard.diagnostics.BAD_INPUT`, `error_line`):

- ok: printed a result;
- located: `file:line:col: error: ...`, every line of it;
- unlocated: a diagnostic that names no place in the file;
- internal: any other exception, which xshard-opt reports as an internal error (and
  a worker that died);
- timeout: no answer within `--timeout` seconds; the worker is killed and replaced.

Mutant `i` depends only on the seed and `i`, so a run is reproducible. The table
counts outcomes per stage; every bad outcome's mutant is written to `--out`, and each
distinct bad outcome (same kind, stage, exception type and innermost xshard frame) is
listed once with its smallest mutant, which `--reduce` shrinks further. Exit code 1
when any outcome is bad. See docs/fuzzing.md.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import re
import shutil
import sys
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from io import StringIO
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from xdsl.printer import Printer

import xshard
from xshard.cli.source import read_module
from xshard.context import xshard_context
from xshard.diagnostics import BAD_INPUT, error_line, verify_located
from xshard.transforms.spmd_pipeline import SpmdPipelinePass

ROOT = Path(__file__).resolve().parents[1]
CORPUS_DIRS = ("tests/filecheck", "tests/e2e", "tests/corpus", "examples")
FRONT_END = ("parse", "verify")
KINDS = ("ok", "located", "unlocated", "internal", "timeout")
BAD = ("unlocated", "internal", "timeout")
INPUT_NAME = "mutant.mlir"
_UNLOCATED = "<unlocated>"

################################################################################
# Corpus and tokens                                                            #
################################################################################


@dataclass(frozen=True)
class Chunk:
    source: str
    """`path:line` where the chunk starts."""
    text: str


def load_corpus(root: Path = ROOT) -> list[Chunk]:
    """Every `// -----` chunk of the corpus files that holds more than comments."""
    chunks: list[Chunk] = []
    for folder in CORPUS_DIRS:
        for path in sorted((root / folder).rglob("*.mlir")):
            line = 1
            for text in path.read_text().split("// -----"):
                if any(t.kind not in ("ws", "comment") for t in tokenize(text)):
                    chunks.append(Chunk(f"{path.relative_to(root)}:{line}", text))
                line += text.count("\n")
    return chunks


@dataclass(frozen=True)
class Token:
    kind: str
    text: str


_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<punct>->|::|\.\.\.)
  | (?P<number>-?0x[0-9a-fA-F]{4,}|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)
  | (?P<ssa>%[\w$.-]+(?:\#\d+)?)
  | (?P<symbol>@[\w$.-]+|@"[^"\n]*")
  | (?P<alias>[#!][\w$.-]+)
  | (?P<block>\^[\w$.-]+)
  | (?P<dimx>(?<=[\d?])x)
  | (?P<ident>[A-Za-z_][\w$.]*)
  | (?P<bracket>[()\[\]{}<>])
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


def tokenize(text: str) -> list[Token]:
    """MLIR text as tokens that join back to it exactly (whitespace and comments kept)."""
    return [Token(m.lastgroup or "other", m.group()) for m in _TOKEN.finditer(text)]


def untokenize(tokens: Iterable[Token]) -> str:
    return "".join(t.text for t in tokens)


_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}


def groups(tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """`[start, end)` of each bracketed group (an attribute, a type, an operand list),
    with the keyword or alias before it: `array<i64: 2, 4>`, `[[0], [1]]`, `#shard<...>`."""
    found: list[tuple[int, int]] = []
    stack: list[int] = []
    for i, token in enumerate(tokens):
        if token.kind != "bracket":
            continue
        if token.text in _CLOSE:
            stack.append(i)
        elif stack and _CLOSE[tokens[stack[-1]].text] == token.text:
            start = stack.pop()
            if start and tokens[start - 1].kind in ("ident", "alias"):
                start -= 1
            found.append((start, i + 1))
    return found


def _group_key(tokens: Sequence[Token], start: int) -> str:
    first = tokens[start]
    return first.text if first.kind == "bracket" else tokens[start + 1].text


@dataclass(frozen=True)
class Pools:
    """What the corpus offers to replace things with."""

    op_names: tuple[str, ...]
    identifiers: tuple[str, ...]
    groups: dict[str, tuple[str, ...]]
    """Bracketed groups by opening bracket."""


def corpus_pools(chunks: Sequence[Chunk], is_op_name: Callable[[str], bool]) -> Pools:
    op_names: set[str] = set()
    identifiers: set[str] = set()
    by_bracket: dict[str, set[str]] = {}
    for chunk in chunks:
        tokens = tokenize(chunk.text)
        for token in tokens:
            name = token.text.strip('"')
            if token.kind in ("ident", "string") and is_op_name(name):
                op_names.add(name)
            elif token.kind == "ident":
                identifiers.add(token.text)
        for start, end in groups(tokens):
            by_bracket.setdefault(_group_key(tokens, start), set()).add(
                untokenize(tokens[start:end])
            )
    return Pools(
        tuple(sorted(op_names)),
        tuple(sorted(identifiers)),
        {key: tuple(sorted(values)) for key, values in sorted(by_bracket.items())},
    )


################################################################################
# Mutations                                                                    #
################################################################################

BOUNDARY_NUMBERS = (
    "0", "1", "-1", "2", "3", "-2", "15", "16",
    str(2**15), str(2**16), str(2**31 - 1), str(2**31), str(-(2**31)), str(2**32),
    str(2**63 - 1), str(2**63), str(-(2**63)), str(-(2**63) - 1), str(2**64),
    str(10**30), str(-(10**30)), "9" * 400, "0.5", "-0.0", "1.0e400", "?",
)  # fmt: skip

Mutation = Callable[[random.Random, list[Token], Pools], list[Token] | None]
"""Returns the mutated tokens, or None when the mutation does not apply."""


def _pick(rng: random.Random, tokens: Sequence[Token], kinds: Sequence[str]) -> int | None:
    found = [i for i, t in enumerate(tokens) if t.kind in kinds]
    return rng.choice(found) if found else None


_SOLID = ("string", "punct", "number", "ssa", "symbol", "alias", "block", "dimx", "ident",
          "bracket", "other")  # fmt: skip


def _replace(tokens: list[Token], i: int, text: str) -> list[Token]:
    return [*tokens[:i], *tokenize(text), *tokens[i + 1 :]]


def delete_token(rng: random.Random, tokens: list[Token], pools: Pools) -> list[Token] | None:
    i = _pick(rng, tokens, _SOLID)
    return None if i is None else tokens[:i] + tokens[i + 1 :]


def duplicate_token(rng: random.Random, tokens: list[Token], pools: Pools) -> list[Token] | None:
    i = _pick(rng, tokens, _SOLID)
    return None if i is None else [*tokens[: i + 1], Token("ws", " "), *tokens[i:]]


def swap_tokens(rng: random.Random, tokens: list[Token], pools: Pools) -> list[Token] | None:
    solid = [i for i, t in enumerate(tokens) if t.kind in _SOLID]
    if len(solid) < 2:
        return None
    k = rng.randrange(len(solid) - 1)
    i, j = (solid[k], solid[k + 1]) if rng.random() < 0.5 else sorted(rng.sample(solid, 2))
    swapped = list(tokens)
    swapped[i], swapped[j] = tokens[j], tokens[i]
    return swapped


def boundary_number(rng: random.Random, tokens: list[Token], pools: Pools) -> list[Token] | None:
    i = _pick(rng, tokens, ("number",))
    return None if i is None else _replace(tokens, i, rng.choice(BOUNDARY_NUMBERS))


def replace_op_name(rng: random.Random, tokens: list[Token], pools: Pools) -> list[Token] | None:
    names = set(pools.op_names)
    found = [i for i, t in enumerate(tokens) if t.text.strip('"') in names]
    if not found:
        return None
    i = rng.choice(found)
    name = rng.choice(pools.op_names)
    return _replace(tokens, i, f'"{name}"' if tokens[i].kind == "string" else name)


def replace_identifier(rng: random.Random, tokens: list[Token], pools: Pools) -> list[Token] | None:
    i = _pick(rng, tokens, ("ident",))
    return None if i is None else _replace(tokens, i, rng.choice(pools.identifiers))


def replace_group(rng: random.Random, tokens: list[Token], pools: Pools) -> list[Token] | None:
    """An attribute, type or list replaced by one from the corpus with the same bracket."""
    found = groups(tokens)
    if not found:
        return None
    start, end = rng.choice(found)
    text = rng.choice(pools.groups[_group_key(tokens, start)])
    return [*tokens[:start], *tokenize(text), *tokens[end:]]


def replace_name(rng: random.Random, tokens: list[Token], pools: Pools) -> list[Token] | None:
    """A value or symbol replaced by another one of the same chunk."""
    i = _pick(rng, tokens, ("ssa", "symbol"))
    if i is None:
        return None
    others = sorted({t.text for t in tokens if t.kind == tokens[i].kind})
    return _replace(tokens, i, rng.choice(others))


def drop_operand(rng: random.Random, tokens: list[Token], pools: Pools) -> list[Token] | None:
    """`%a, %b` -> `%a` or `%b`."""
    solid = [i for i, t in enumerate(tokens) if t.kind in _SOLID]
    spans = [
        (solid[k - 1], solid[k] + 1) if rng.random() < 0.5 else (solid[k], solid[k + 1] + 1)
        for k in range(1, len(solid) - 1)
        if tokens[solid[k]].text == ","
        and tokens[solid[k - 1]].kind == tokens[solid[k + 1]].kind == "ssa"
    ]
    if not spans:
        return None
    start, end = rng.choice(spans)
    return tokens[:start] + tokens[end:]


def duplicate_operand(rng: random.Random, tokens: list[Token], pools: Pools) -> list[Token] | None:
    i = _pick(rng, tokens, ("ssa",))
    if i is None:
        return None
    return [*tokens[: i + 1], *tokenize(f", {tokens[i].text}"), *tokens[i + 1 :]]


def truncate(rng: random.Random, tokens: list[Token], pools: Pools) -> list[Token] | None:
    return tokens[: rng.randrange(len(tokens))] if tokens else None


MUTATIONS: dict[str, Mutation] = {  # token-level
    "delete-token": delete_token,
    "duplicate-token": duplicate_token,
    "swap-tokens": swap_tokens,
    "boundary-number": boundary_number,
    "replace-op-name": replace_op_name,
    "replace-identifier": replace_identifier,
    "replace-attribute": replace_group,
    "replace-name": replace_name,
    "drop-operand": drop_operand,
    "duplicate-operand": duplicate_operand,
    "truncate": truncate,
}
# Numbers are where most of the crashes were; weight them up.
_WEIGHTS = {"boundary-number": 4, "replace-attribute": 2}

INVALID_UTF8 = (
    b"\x80", b"\xbf", b"\xfe", b"\xff", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xc3\x28",
    b"\xc0\xaf", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80",
)  # fmt: skip
"""Stray continuation bytes, bytes never in UTF-8, sequences cut short, overlong forms,
an encoded surrogate, a code point past U+10FFFF, a five-byte form."""

ByteMutation = Callable[[random.Random, bytes], bytes | None]


def invalid_utf8(rng: random.Random, data: bytes) -> bytes | None:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice(INVALID_UTF8) + data[at:]


def nul_bytes(rng: random.Random, data: bytes) -> bytes | None:
    """One to four NUL bytes, inserted or in place of as many bytes."""
    at = rng.randrange(len(data) + 1)
    count = rng.randint(1, 4)
    replaced = count if rng.random() < 0.5 else 0
    return data[:at] + b"\0" * count + data[at + replaced :]


def truncate_bytes(rng: random.Random, data: bytes) -> bytes | None:
    """Cut at any byte: inside a token, a string, a UTF-8 sequence."""
    return data[: rng.randrange(len(data))] if data else None


def flip_byte(rng: random.Random, data: bytes) -> bytes | None:
    if not data:
        return None
    at = rng.randrange(len(data))
    return data[:at] + bytes([data[at] ^ rng.randrange(1, 256)]) + data[at + 1 :]


def insert_bytes(rng: random.Random, data: bytes) -> bytes | None:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.randbytes(rng.randint(1, 4)) + data[at:]


BYTE_MUTATIONS: dict[str, ByteMutation] = {
    "invalid-utf8": invalid_utf8,
    "nul-bytes": nul_bytes,
    "truncate-bytes": truncate_bytes,
    "flip-byte": flip_byte,
    "insert-bytes": insert_bytes,
}
GROUPS = {"tokens": tuple(MUTATIONS), "bytes": tuple(BYTE_MUTATIONS)}
"""What `--mutations` also takes: every mutation of a level."""


def _encode(text: str) -> bytes:
    """Text that byte-level mutations went through (`surrogateescape`) back to bytes."""
    return text.encode(errors="surrogateescape")


@dataclass(frozen=True)
class Mutant:
    index: int
    source: str
    mutations: tuple[str, ...]
    data: bytes


def make_mutant(
    index: int,
    seed: int,
    chunks: Sequence[Chunk],
    pools: Pools,
    names: Sequence[str] = tuple(MUTATIONS),
) -> Mutant:
    """Mutant `index` of the run with `seed`, made with the mutations `names`: the same
    for any number of mutants or jobs. Token-level mutations in a row share one
    tokenization; after a byte-level one the bytes are tokenized again."""
    rng = random.Random(f"xshard-fuzz:{seed}:{index}")
    chunk = rng.choice(chunks)
    mutant: list[Token] | bytes = tokenize(chunk.text)
    applied: list[str] = []
    weights = [_WEIGHTS.get(n, 1) for n in names]
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        name = rng.choices(names, weights)[0]
        if name in BYTE_MUTATIONS:
            mutated = BYTE_MUTATIONS[name](rng, _bytes(mutant))
        else:
            mutated = MUTATIONS[name](rng, _tokens(mutant), pools)
        if mutated is not None:
            mutant = mutated
            applied.append(name)
    return Mutant(index, chunk.source, tuple(applied), _bytes(mutant))


def _bytes(mutant: list[Token] | bytes) -> bytes:
    return mutant if isinstance(mutant, bytes) else _encode(untokenize(mutant))


def _tokens(mutant: list[Token] | bytes) -> list[Token]:
    if isinstance(mutant, bytes):
        return tokenize(mutant.decode(errors="surrogateescape"))
    return mutant


################################################################################
# Running one input as xshard-opt -p xshard-spmd does                          #
################################################################################


@dataclass(frozen=True)
class Outcome:
    kind: str
    stage: str
    message: str = ""
    error: str = ""
    """Exception type, for internal errors."""
    frame: str = ""
    """Where an internal error was raised: the innermost xshard frame (and the innermost
    frame, when that is in xDSL or Python)."""

    @property
    def signature(self) -> tuple[str, ...]:
        return (self.kind, self.stage, self.error, self.frame or self.message)


def _frames(err: BaseException) -> str:
    """The innermost xshard frame of the traceback, and the innermost one if elsewhere."""
    package = Path(xshard.__file__).resolve().parent
    frames = traceback.extract_tb(err.__traceback__)
    own = [f for f in frames if Path(f.filename).resolve().is_relative_to(package)]
    shown = [
        f"{Path(f.filename).resolve().relative_to(package.parent)}:{f.lineno} ({f.name})"
        for f in own[-1:]
    ]
    if frames and frames[-1] not in own[-1:]:
        last = frames[-1]
        where = Path(last.filename)
        name = (
            "/".join(where.parts[where.parts.index("xdsl") :])
            if "xdsl" in where.parts
            else where.name
        )
        shown.append(f"in {name}:{last.lineno} ({last.name})")
    return " ".join(shown)


def run_one(data: bytes, on_stage: Callable[[str], None] = lambda stage: None) -> Outcome:
    """Read and parse, verify, run `xshard-spmd` phase by phase, print; classify the
    first failure. `on_stage` hears of each stage as it starts (to name a hang's stage)."""
    stage = ""

    def enter(name: str) -> None:
        nonlocal stage
        stage = name
        on_stage(name)

    ctx = xshard_context()
    try:
        enter("parse")
        module = read_module(ctx, data, INPUT_NAME)
        enter("verify")
        verify_located(module)
        for phase in SpmdPipelinePass().passes():  # what SpmdPipelinePass.apply does
            enter(phase.name)
            phase.apply(ctx, module)
            verify_located(module)
        enter("print")
        Printer(stream=StringIO()).print_op(module)
    except BAD_INPUT as err:
        lines = error_line(err, _UNLOCATED).splitlines()
        located = not any(line.startswith(_UNLOCATED) for line in lines)
        return Outcome("located" if located else "unlocated", stage, lines[0])
    except Exception as err:  # what xshard-opt reports as an internal error
        message = f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"
        return Outcome("internal", stage, message, type(err).__name__, _frames(err))
    return Outcome("ok", stage)


################################################################################
# A pool of workers that survives hangs and crashes                            #
################################################################################


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    stage: Any
    """A shared `char[]` the worker writes its current stage into."""
    job: int = -1
    started: float = 0.0

    def current_stage(self) -> str:
        return self.stage.value.decode() or "?"


def _serve(conn: Connection, stage: Any) -> None:
    sys.setrecursionlimit(10_000)

    def on_stage(name: str) -> None:
        stage.value = name.encode()

    while (job := conn.recv()) is not None:
        index, data = job
        conn.send((index, run_one(data, on_stage)))


class WorkerPool:
    """Forked workers running `run_one`; one that overruns `timeout` seconds or dies is
    replaced, and its job counted as a timeout or an internal error. Use it as a
    context manager, and consume each `run` to its end."""

    def __init__(self, jobs: int, timeout: float):
        self.jobs, self.timeout = jobs, timeout
        self._context = multiprocessing.get_context("fork")
        self._workers: list[_Worker] = []

    def __enter__(self) -> WorkerPool:
        self._workers = [self._spawn() for _ in range(self.jobs)]
        return self

    def __exit__(self, *exc: object) -> None:
        for worker in self._workers:
            worker.process.kill()
            worker.process.join()
        self._workers = []

    def _spawn(self) -> _Worker:
        parent, child = self._context.Pipe()
        stage = self._context.Array("c", 64, lock=False)
        process = self._context.Process(target=_serve, args=(child, stage), daemon=True)
        process.start()
        child.close()
        return _Worker(process, parent, stage)

    def _replace(self, worker: _Worker) -> _Worker:
        worker.process.kill()
        worker.process.join()
        fresh = self._spawn()
        self._workers[self._workers.index(worker)] = fresh
        return fresh

    def run(self, jobs: Iterable[tuple[int, bytes]]) -> Iterator[tuple[int, Outcome]]:
        pending = deque(jobs)
        idle = list(self._workers)
        busy: dict[Connection, _Worker] = {}
        while pending or busy:
            while idle and pending:
                worker = idle.pop()
                worker.job, data = pending.popleft()
                worker.stage.value = b""
                worker.started = time.monotonic()
                worker.conn.send((worker.job, data))
                busy[worker.conn] = worker
            deadline = min(w.started for w in busy.values()) + self.timeout
            for conn in wait(list(busy), max(0.0, deadline - time.monotonic())):
                worker = busy.pop(conn)  # type: ignore[call-overload]
                try:
                    result = worker.conn.recv()
                except EOFError:
                    worker.process.join(self.timeout)
                    stage, code = worker.current_stage(), worker.process.exitcode
                    idle.append(self._replace(worker))
                    why = f"worker died with exit code {code}"
                    yield worker.job, Outcome("internal", stage, why, "WorkerDied")
                    continue
                idle.append(worker)
                yield result
            now = time.monotonic()
            for conn, worker in list(busy.items()):
                if now - worker.started > self.timeout:
                    del busy[conn]
                    stage = worker.current_stage()
                    idle.append(self._replace(worker))
                    why = f"no answer in {self.timeout:g} s"
                    yield worker.job, Outcome("timeout", stage, why)

    def check(self, data: bytes) -> Outcome:
        """The outcome of one input."""
        return list(self.run([(0, data)]))[0][1]


################################################################################
# Reduction, report                                                            #
################################################################################


def reduce_text(text: str, keeps: Callable[[str], bool], budget: int = 1500) -> str:
    """Greedily drop runs of lines, then runs of tokens (each with the whitespace before
    it), halving the run length, while `keeps` still holds; at most `budget` checks."""
    checks = 0

    def shrink(units: list[str]) -> list[str]:
        nonlocal checks
        size = max(1, len(units) // 2)
        while size >= 1 and checks < budget:
            start = 0
            while start < len(units) and checks < budget:
                candidate = units[:start] + units[start + size :]
                checks += 1
                if candidate and keeps("".join(candidate)):
                    units = candidate
                else:
                    start += size
            size //= 2
        return units

    lines = shrink(text.splitlines(keepends=True))
    units: list[str] = []
    space = ""
    for token in tokenize("".join(lines)):
        if token.kind == "ws":
            space += token.text
        else:
            units.append(space + token.text)
            space = ""
    return "".join(shrink(units)) + space


@dataclass
class Report:
    mutants: list[Mutant]
    outcomes: dict[int, Outcome]
    seconds: float
    chunks: int

    def count(self, kind: str, stage: str | None = None) -> int:
        return sum(o.kind == kind and stage in (None, o.stage) for o in self.outcomes.values())

    def bad_signatures(self) -> dict[tuple[str, ...], list[Mutant]]:
        """Each distinct bad outcome with its mutants, smallest first."""
        found: dict[tuple[str, ...], list[Mutant]] = {}
        for mutant in self.mutants:
            outcome = self.outcomes[mutant.index]
            if outcome.kind in BAD:
                found.setdefault(outcome.signature, []).append(mutant)
        for mutants in found.values():
            mutants.sort(key=lambda m: (len(m.data), m.index))
        return dict(sorted(found.items(), key=lambda item: (-len(item[1]), item[0])))

    @staticmethod
    def stages() -> tuple[str, ...]:
        """Front end, each pipeline phase, printing; `?` for a worker that said nothing."""
        return (*FRONT_END, *(p.name for p in SpmdPipelinePass().passes()), "print", "?")

    def table(self) -> str:
        """Outcome counts per stage."""
        stages = self.stages()
        width = max(map(len, stages)) + 2
        lines = [f"{'stage':<{width}}" + "".join(f"{k:>10}" for k in KINDS)]
        for stage in (*stages, None):
            cells = [self.count(kind, stage) for kind in KINDS]
            lines.append(f"{stage or 'total':<{width}}" + "".join(f"{n:>10}" for n in cells))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "mutants": len(self.mutants),
            "chunks": self.chunks,
            "seconds": round(self.seconds, 1),
            "counts": {
                stage: {kind: self.count(kind, stage) for kind in KINDS} for stage in self.stages()
            },
            "bad": [
                dict(zip(("kind", "stage", "error", "where"), signature, strict=True))
                | {
                    "message": self.outcomes[mutants[0].index].message,
                    "mutants": [m.index for m in mutants],
                }
                for signature, mutants in self.bad_signatures().items()
            ],
        }


def run_fuzz(
    mutants: int,
    seed: int,
    jobs: int,
    timeout: float,
    names: Sequence[str] = tuple(MUTATIONS),
) -> Report:
    ctx = xshard_context()
    chunks = load_corpus()
    pools = corpus_pools(chunks, lambda name: ctx.get_optional_op(name) is not None)
    made = [make_mutant(i, seed, chunks, pools, names) for i in range(mutants)]
    start = time.perf_counter()
    with WorkerPool(jobs, timeout) as pool:
        outcomes = dict(pool.run((m.index, m.data) for m in made))
    return Report(made, outcomes, time.perf_counter() - start, len(chunks))


def _header(mutant: Mutant, outcome: Outcome) -> str:
    lines = [
        f"mutant {mutant.index} of {mutant.source}, mutations: {', '.join(mutant.mutations)}",
        f"{outcome.kind} at {outcome.stage}: {outcome.message}",
    ]
    if outcome.frame:
        lines.append(f"innermost xshard frame: {outcome.frame}")
    return "".join(f"// {line}\n" for line in lines)


def write_findings(report: Report, out: Path, reduce: bool, timeout: float) -> list[str]:
    """Write every bad mutant to `out`; return one summary line per distinct outcome."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    summary: list[str] = []
    with WorkerPool(1, timeout) as pool:
        reducer = pool if reduce else None
        for signature, mutants in report.bad_signatures().items():
            summary.append(_write_finding(out, report, signature, mutants, reducer))
    (out / "findings.txt").write_text("\n".join(summary) + "\n")
    return summary


def _write_finding(
    out: Path,
    report: Report,
    signature: tuple[str, ...],
    mutants: Sequence[Mutant],
    pool: WorkerPool | None,
) -> str:
    """Write one distinct bad outcome's mutants; reduce the smallest with `pool`."""
    for mutant in mutants:
        outcome = report.outcomes[mutant.index]
        name = f"{outcome.kind}-{outcome.stage}-{mutant.index:05d}.mlir"
        (out / name).write_bytes(_encode(_header(mutant, outcome)) + mutant.data)
    smallest = mutants[0]
    outcome = report.outcomes[smallest.index]
    example = out / f"{outcome.kind}-{outcome.stage}-{smallest.index:05d}.mlir"
    if pool is not None and outcome.kind != "timeout":
        reduced = reduce_text(
            smallest.data.decode(errors="surrogateescape"),
            lambda text: pool.check(_encode(text)).signature == signature,
        )
        example = example.with_suffix(".reduced.mlir")
        example.write_bytes(_encode(_header(smallest, outcome) + reduced))
    where = f" at {outcome.frame}" if outcome.frame else ""
    return (
        f"{len(mutants):>5} {outcome.kind} at {outcome.stage}: {outcome.message}{where}\n"
        f"      e.g. {example}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutants", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=max(1, multiprocessing.cpu_count()))
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per mutant")
    parser.add_argument("--out", type=Path, default=Path("/tmp/xshard-fuzz"))
    parser.add_argument("--reduce", action="store_true", help="shrink one mutant per finding")
    parser.add_argument("--json", type=Path, help="also write the counts and findings here")
    parser.add_argument(
        "--mutations",
        type=lambda text: text.split(","),
        default=list(MUTATIONS),
        help=f"comma-separated, among: {', '.join([*MUTATIONS, *BYTE_MUTATIONS])}; or "
        f"{' or '.join(GROUPS)} for every mutation of that level (default: tokens)",
    )
    args = parser.parse_args(argv)
    names = [name for given in args.mutations for name in GROUPS.get(given, (given,))]
    unknown = set(names) - set(MUTATIONS) - set(BYTE_MUTATIONS)
    if unknown:
        parser.error(f"unknown mutations: {', '.join(sorted(unknown))}")
    report = run_fuzz(args.mutants, args.seed, args.jobs, args.timeout, names)
    print(
        f"{args.mutants} mutants of {report.chunks} corpus chunks, seed {args.seed}, "
        f"{args.jobs} jobs: {report.seconds:.1f} s"
    )
    print(report.table())
    summary = write_findings(report, args.out, args.reduce, args.timeout)
    if args.json:
        args.json.write_text(json.dumps(report.to_json(), indent=1) + "\n")
    if summary:
        print(f"\nbad outcomes, deduplicated (all mutants under {args.out}):")
        print("\n".join(summary))
    return 1 if summary else 0


if __name__ == "__main__":
    sys.exit(main())
