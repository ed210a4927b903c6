"""`sharding-propagation` against the reference `mlir-opt-22` (LLVM 22.1.8), value by value.

Each module of `tests/corpus/propagation/` names in its first line the
traversals to run. Both tools propagate it; then, function by function, every
tensor block argument, every result and every operand of every op other than
the `shard` ops must get the same sharding:

- a result (or argument): the last of its chain of result annotations
  (`shard.shard` without `annotate_for_users`); an argument with none takes the
  sharding of its `annotate_for_users` users, which is what partition lays it
  out as. Where those users disagree, upstream leaves the layout open, and
  xshard must pick one of them;
- an operand: the `shard.shard` that feeds it, with its `annotate_for_users` flag.

The one allowed difference: xshard keeps partial axes (`partial = sum [a]`)
where upstream reduces at once. Each such value is listed in `PARTIAL`, and
there the shardings must differ by exactly those partial axes; where such a value
is returned, xshard settles it with one more annotation (`SETTLED`).

xshard runs in-process (one `xshard-opt --print-op-generic` run checks that the
CLI agrees); mlir-opt's generic output is read with xshard's parser.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.traits import IsTerminator

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.dialects.shard import ShardingOp, ShardOp
from xshard.interfaces.annotations import sharding_of
from xshard.sharding.reduction import ReductionKind
from xshard.sharding.sharding import Sharding
from xshard.transforms.propagation.sharding_propagation import ShardingPropagationPass

MlirOpt = Callable[[Path, str], str]
"""The `mlir_opt_generic` fixture: a file through a pipeline, in generic form."""

CORPUS = Path(__file__).parent / "corpus" / "propagation"
TRAVERSALS = ("forward", "backward", "forward-backward", "backward-forward")

PARTIAL: dict[tuple[str, str, str], str] = {
    # A split reduction loop: upstream all-reduces inside partition.
    ("linalg_traversals", "reduce_split_rows", "linalg.reduce#0 result 0"): "sum [0]",
    ("linalg_traversals", "full_reduce", "linalg.reduce#0 result 0"): "max [0, 1]",
    # A split contracting dim of linalg.matmul: partial-sum results.
    ("matmul", "split_m_k_from_input", "linalg.matmul#0 result 0"): "sum [1]",
    ("matmul", "k_on_two_axes", "linalg.matmul#0 result 0"): "sum [1, 0]",
    # The MLPs' first matmul: its user (a max with 0) is not linear, so the
    # partial sum is settled on the way into it, where upstream settles it too.
    ("matmul", "mlp_1d_weight_stationary", "linalg.matmul#0 result 0"): "sum [0]",
    ("matmul", "mlp_2d_weight_stationary", "linalg.matmul#0 result 0"): "sum [0, 1]",
    # tosa.matmul alike.
    ("tosa_matmul", "m_and_k_from_input", "tosa.matmul#0 result 0"): "sum [1]",
    ("tosa_matmul", "mlp_1d_weight_stationary", "tosa.matmul#0 result 0"): "sum [0]",
}
"""(module stem, function, value) -> the partial axes xshard keeps there, `kind [axes]`. A key
applies to every traversal of the module, or only to one when written `stem@traversal`."""

SETTLED: frozenset[tuple[str, str]] = frozenset(
    {
        ("linalg_traversals", "reduce_split_rows"),
        ("linalg_traversals", "full_reduce"),
        ("matmul", "split_m_k_from_input"),
        ("matmul", "k_on_two_axes"),
        ("tosa_matmul", "m_and_k_from_input"),
    }
)
"""(module stem, function) whose returned value xshard kept partial up to the return: it
is settled there by one more annotation, for its user, with the sharding upstream gives
the returned value; upstream's annotation is the value's own."""


def _cases() -> list[tuple[str, str]]:
    cases = []
    for path in sorted(CORPUS.glob("*.mlir")):
        header = path.read_text().splitlines()[0]
        match = re.fullmatch(r"// Traversals: (.*)", header)
        assert match, f"{path.name}: first line must be '// Traversals: ...'"
        for traversal in match.group(1).split(", "):
            assert traversal in TRAVERSALS, f"{path.name}: unknown traversal {traversal}"
            cases.append((path.stem, traversal))
    return cases


CASES = _cases()



def _parse(text: str) -> ModuleOp:
    module = LocatingParser(xshard_context(), text).parse_module()
    assert isinstance(module, ModuleOp)
    return module


def _reference(run: MlirOpt, stem: str, traversal: str) -> ModuleOp:
    pipeline = f"builtin.module(func.func(sharding-propagation{{traversal={traversal}}}))"
    return _parse(run(CORPUS / f"{stem}.mlir", pipeline))


@cache
def _input(stem: str) -> ModuleOp:
    return _parse((CORPUS / f"{stem}.mlir").read_text())


def _xshard(stem: str, traversal: str) -> ModuleOp:
    module = _input(stem).clone()
    ShardingPropagationPass(traversal=traversal).apply(xshard_context(), module)
    return module


def _sharding(shard: ShardOp) -> Sharding:
    return sharding_of(shard.sharding, shard)


def _layout(value: SSAValue) -> Sharding | frozenset[Sharding] | None:
    """The sharding a value is laid out in (see the module docstring)."""
    users = [use.operation for use in value.uses]
    results = [u for u in users if isinstance(u, ShardOp) and u.annotate_for_users is None]
    if results:
        assert len(results) == 1, f"{value} has two result annotations"
        return _layout(results[0].result) or _sharding(results[0])
    flagged = frozenset(_sharding(u) for u in users if isinstance(u, ShardOp))
    if isinstance(value.owner, Operation) or not flagged:
        return None
    return next(iter(flagged)) if len(flagged) == 1 else flagged


def _operand(value: SSAValue) -> tuple[str, Sharding] | None:
    owner = value.owner
    if not isinstance(owner, ShardOp):
        return None
    return ("for users" if owner.annotate_for_users else "result"), _sharding(owner)


def _values(fn: func.FuncOp) -> dict[str, object]:
    """Every value's sharding, keyed by `arg N`, `op#k result N` or `op#k operand N`."""
    found: dict[str, object] = {}
    for i, arg in enumerate(fn.body.block.args):
        if isinstance(arg.type, TensorType):
            found[f"arg {i}"] = _layout(arg)
    seen: Counter[str] = Counter()
    for op in fn.body.block.ops:
        if isinstance(op, ShardOp | ShardingOp):
            continue
        name = "return" if op.has_trait(IsTerminator) else f"{op.name}#{seen[op.name]}"
        seen[op.name] += 1
        for i, v in enumerate(op.operands):
            if isinstance(v.type, TensorType):
                found[f"{name} operand {i}"] = _operand(v)
        for j, r in enumerate(op.results):
            if isinstance(r.type, TensorType):
                found[f"{name} result {j}"] = _layout(r)
    return found


def _functions(module: ModuleOp) -> dict[str, dict[str, object]]:
    return {op.sym_name.data: _values(op) for op in module.ops if isinstance(op, func.FuncOp)}


def _partial(stem: str, traversal: str, fn: str, key: str) -> str | None:
    return PARTIAL.get((f"{stem}@{traversal}", fn, key), PARTIAL.get((stem, fn, key)))


def _with_partial(value: object, partial: str) -> object:
    """`value` with partial axes added; it must have none, as upstream has none."""
    kind, axes = partial.split(" ", 1)
    add = tuple(int(a) for a in axes.strip("[]").split(", "))
    if isinstance(value, tuple):
        return value[0], _with_partial(value[1], partial)
    assert isinstance(value, Sharding) and not value.partial_axes, (
        f"no sharding to make partial: {value}"
    )
    return replace(value, partial_axes=add, partial_kind=ReductionKind(kind))


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return f"{value[1]} ({value[0]})"
    if isinstance(value, frozenset):
        return "one of " + ", ".join(sorted(map(str, value)))
    return str(value)


def _agrees(ours: object, reference: object) -> bool:
    if isinstance(reference, frozenset):
        return ours in reference
    return ours == reference


def test_corpus_covers_every_traversal():
    assert {t for _, t in CASES} == set(TRAVERSALS)


@pytest.mark.parametrize(("stem", "traversal"), CASES, ids=[f"{s}-{t}" for s, t in CASES])
def test_same_shardings_as_mlir_opt(mlir_opt_generic: MlirOpt, stem: str, traversal: str):
    reference = _functions(_reference(mlir_opt_generic, stem, traversal))
    ours = _functions(_xshard(stem, traversal))
    assert ours.keys() == reference.keys()
    for where, fn, key in PARTIAL:
        if where in (stem, f"{stem}@{traversal}"):
            assert key in reference.get(fn, {}), f"PARTIAL names no value {key!r} of @{fn}"
    mismatches = []
    for fn, values in reference.items():
        assert ours[fn].keys() == values.keys(), fn
        for key, theirs in values.items():
            partial = _partial(stem, traversal, fn, key)
            expected = theirs if partial is None else _with_partial(theirs, partial)
            if key == "return operand 0" and (stem, fn) in SETTLED:
                assert isinstance(theirs, tuple)
                expected = ("for users", theirs[1])
            if not _agrees(ours[fn][key], expected):
                mismatches.append(
                    f"@{fn} {key}: xshard {_show(ours[fn][key])}, mlir-opt {_show(theirs)}"
                )
    assert not mismatches, "\n".join(mismatches)


def test_cli_agrees_with_in_process_run():
    stem, traversal = CASES[0]
    done = subprocess.run(
        [
            "xshard-opt",
            str(CORPUS / f"{stem}.mlir"),
            "-p",
            f"sharding-propagation{{traversal={traversal}}}",
            "--print-op-generic",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert _functions(_parse(done.stdout)) == _functions(_xshard(stem, traversal))
