"""The ops of convolutional models (convolution, reduce_window, select_and_scatter, pad,
reverse) partitioned and run on 8 simulated CPU devices, against one device.

Each `tests/e2e/` program below is a global annotated program run end to end by
`xshard.jax.run.run_module` (propagation, partition, collective simplification, export,
XLA); the collectives each device executes are held to the analytic minimum written
in the program's header comment. The sharding rules of the shapes that must not be
split are checked directly (a wrongly indexed dim would be a wrong number), and every
loop of ten convolution forms is split alone on 4 devices.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.dialects import stablehlo as hlo
from xshard.interfaces.models import model_for
from xshard.interfaces.sharding_interface import NO_PARTIAL, dim_loops
from xshard.jax.run import run_module
from xshard.sharding.reduction import ReductionKind
from xshard.transforms.analysis.collective_count import Collective

E2E = Path(__file__).parent / "e2e"

# (program, the analytic minimum: collectives as (op, count, bytes on one device))
CASES = [
    ("conv_batch_8.mlir", []),
    ("conv_features_2x4.mlir", []),
    ("conv_contracting_8.mlir", [("all_reduce", 1, 2 * 4 * 4 * 8 * 4)]),
    ("conv_halo_2x4.mlir", [("collective_permute", 4, 4 * 2 * 1 * 8 * 4 * 4)]),
    ("conv_windows_2x4.mlir", [("collective_permute", 6, 2 * 576 + 2 * 384 + 216 + 120)]),
    ("conv_strided_2x4.mlir", [("collective_permute", 1, 2 * 1 * 16 * 4 * 4)]),
    ("conv_transposed_2x4.mlir", [("all_gather", 1, 2 * 2 * 8 * 4 * 4)]),
    ("conv_dp_step_8.mlir", [("all_reduce", 1, 3 * 3 * 4 * 8 * 4)]),
    ("depthwise_8.mlir", []),
    ("pooling_8.mlir", [("collective_permute", 3, 2 * 128 + 2 * 1 * 8 * 4 * 4)]),
    ("windows_variadic_8.mlir", [("collective_permute", 4, 4 * 2 * 2 * 8 * 4 * 4)]),
    ("pad_reverse_2x4.mlir", [("all_gather", 1, 2 * 2 * 8 * 4 * 4)]),
    ("partial_flow_8.mlir", [("all_reduce", 1, 2 * 10 * 8 * 8 * 4)]),
    ("partial_max_pad_8.mlir", [("all_reduce", 1, 10 * 4)]),
]


def parse(text: str, name: str = "<test>") -> ModuleOp:
    return LocatingParser(xshard_context(), text, name).parse_module()


@pytest.mark.parametrize(("name", "minimum"), CASES, ids=[c[0] for c in CASES])
def test_partitioned_on_8_devices_at_the_analytic_minimum(name: str, minimum: list[tuple]) -> None:
    path = E2E / name
    report = run_module(parse(path.read_text(), str(path)), 8, seed=5)
    assert report.match, f"max abs error {report.max_abs_error}"
    assert report.collectives == [Collective(*c) for c in minimum]


# ---------------------------------------------------------------- rules


_NAMES = {
    "stablehlo.convolution",
    "stablehlo.reduce_window",
    "stablehlo.select_and_scatter",
    "stablehlo.pad",
    "stablehlo.reverse",
}


def only_op(body: str, args: str) -> Operation:
    """The one op of `_NAMES` in a function of `args` whose body is `body`."""
    module = parse(f"func.func @f({args}) {{\n{body}\n  func.return\n}}")
    (op,) = [op for op in module.walk() if op.name in _NAMES]
    return op


def indexed(op: Operation) -> tuple[list[list[bool]], list[list[bool]]]:
    """Per tensor operand and result, which dims a loop indexes."""
    rule = model_for(op).rule(op)  # type: ignore[union-attr]
    operands = [
        [loop is not None for loop in dim_loops(m)] for m in rule.operand_maps if m is not None
    ]
    results = [[loop is not None for loop in dim_loops(m)] for m in rule.result_maps]
    return operands, results


NHWC = "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"


def conv(window: str, groups: tuple[int, int], types: str, dims: str = NHWC) -> Operation:
    lhs, rhs = types.split(" -> ")[0].strip("()").split(", ")
    return only_op(
        f"  %0 = stablehlo.convolution(%x, %w) dim_numbers = {dims}, window = {{{window}}} "
        f"{{batch_group_count = {groups[1]} : i64, feature_group_count = {groups[0]} : i64}} "
        f": {types}",
        f"%x: {lhs}, %w: {rhs}",
    )


T, F = True, False


@pytest.mark.parametrize(
    ("window", "types"),
    [
        ("stride = [2, 2], pad = [[0, 1], [0, 1]]",  # flax "SAME", 3x3 stride 2: halo (0, 1)
         "(tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x4x4x8xf32>"),
        ("stride = [2, 2], pad = [[2, 3], [2, 3]]",  # ResNet's 7x7 stride-2 stem: halo (2, 3)
         "(tensor<2x8x8x4xf32>, tensor<7x7x4x8xf32>) -> tensor<2x4x4x8xf32>"),
        ("stride = [4, 4]",  # patches: windows tile the dim, no halo
         "(tensor<2x8x8x4xf32>, tensor<4x4x4x8xf32>) -> tensor<2x2x2x8xf32>"),
    ],
)
def test_convolution_strided_spatial_dims_are_loops(window: str, types: str) -> None:
    operands, results = indexed(conv(window, (1, 1), types))
    assert operands[0] == [T, T, T, T] and results == [[T, T, T, T]]


def test_convolution_rule_nhwc_same() -> None:
    """batch, H, W and features are loops; the kernel's window dims never are."""
    op = conv("stride = [1, 1], pad = [[1, 1], [1, 1]]", (1, 1),
              "(tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x8x8x8xf32>")
    assert indexed(op) == ([[T, T, T, T], [F, F, T, T]], [[T, T, T, T]])
    rule = model_for(op).rule(op)  # type: ignore[union-attr]
    assert [str(loop) for loop in rule.loops].count("reduction_sum") == 1


@pytest.mark.parametrize(
    ("window", "types"),
    [
        # stride 2 with more low padding than reach - stride: a negative upper halo
        ("stride = [2, 2], pad = [[2, 0], [2, 0]]",
         "(tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x4x4x8xf32>"),
        # "VALID": the result is shorter than the input
        ("stride = [1, 1], pad = [[0, 0], [0, 0]]",
         "(tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xf32>"),
        # dilated input (a transposed convolution's gradient)
        ("stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [2, 2]",
         "(tensor<2x4x4x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x7x7x8xf32>"),
        # stride = window but the last input row is left over
        ("stride = [2, 2], pad = [[0, 0], [0, 0]]",
         "(tensor<2x9x9x4xf32>, tensor<2x2x4x8xf32>) -> tensor<2x4x4x8xf32>"),
    ],
)
def test_convolution_spatial_dims_that_must_stay_whole(window: str, types: str) -> None:
    operands, results = indexed(conv(window, (1, 1), types))
    assert operands[0] == [T, F, F, T] and results == [[T, F, F, T]]


def test_convolution_groups() -> None:
    depthwise = conv("pad = [[1, 1], [1, 1]]", (8, 1),
                     "(tensor<2x8x8x8xf32>, tensor<3x3x1x16xf32>) -> tensor<2x8x8x16xf32>")
    assert indexed(depthwise) == ([[T, T, T, T], [F, F, F, T]], [[T, T, T, T]])
    grouped = conv("pad = [[1, 1], [1, 1]]", (2, 1),
                   "(tensor<2x8x8x8xf32>, tensor<3x3x4x16xf32>) -> tensor<2x8x8x16xf32>")
    assert indexed(grouped) == ([[T, T, T, F], [F, F, F, F]], [[T, T, T, F]])
    kernel_grad = conv("pad = [[1, 1], [1, 1]]", (1, 8),
                       "(tensor<2x8x8x8xf32>, tensor<2x8x8x16xf32>) -> tensor<3x3x1x16xf32>",
                       dims="[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]")
    # the activations' rows and columns are the kernel's window here: not loops
    assert indexed(kernel_grad) == ([[T, F, F, T], [T, F, F, T]], [[F, F, F, T]])
    batch_groups = conv("pad = [[1, 1], [1, 1]]", (1, 2),
                        "(tensor<4x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x8x8x16xf32>")
    assert indexed(batch_groups) == ([[F, T, T, T], [F, F, T, F]], [[F, T, T, F]])


def reduce_window(props: str, init: str, types: str, body: str = "stablehlo.add") -> Operation:
    return only_op(
        f'  %z = stablehlo.constant dense<{init}> : tensor<f32>\n'
        f'  %0 = "stablehlo.reduce_window"(%x, %z) <{{{props}}}> ({{\n'
        f"  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        f"    %s = {body} %a, %b : tensor<f32>\n"
        f"    stablehlo.return %s : tensor<f32>\n"
        f"  }}) : {types}",
        "%x: tensor<8x8xf32>",
    )


def test_reduce_window_rule() -> None:
    pool = reduce_window(
        "padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 3>",
        "0.0", "(tensor<8x8xf32>, tensor<f32>) -> tensor<8x6xf32>",
    )
    # dim 0 "same" (halo 1, 1); dim 1 overlapping windows without padding: whole
    assert indexed(pool) == ([[T, F], []], [[T, F]])
    assert model_for(pool).rule(pool).partial.kinds == {ReductionKind.SUM}  # type: ignore[union-attr]
    not_identity = reduce_window("window_dimensions = array<i64: 2, 2>, window_strides = "
                                 "array<i64: 2, 2>", "1.0",
                                 "(tensor<8x8xf32>, tensor<f32>) -> tensor<4x4xf32>")
    assert indexed(not_identity) == ([[T, T], []], [[T, T]])
    rule = model_for(not_identity).rule(not_identity)  # type: ignore[union-attr]
    # any init: it is an accumulator, made partial alike when the result is partial
    assert rule.partial.kinds == {ReductionKind.SUM} and rule.accumulators == (1,)
    max_pool = reduce_window("window_dimensions = array<i64: 2, 2>, window_strides = "
                             "array<i64: 2, 2>", "0xFF800000",
                             "(tensor<8x8xf32>, tensor<f32>) -> tensor<4x4xf32>",
                             body="stablehlo.maximum")
    assert model_for(max_pool).rule(max_pool).partial.kinds == {ReductionKind.MAX}  # type: ignore[union-attr]
    subtract = reduce_window("window_dimensions = array<i64: 2, 2>", "0.0",
                             "(tensor<8x8xf32>, tensor<f32>) -> tensor<7x7xf32>",
                             body="stablehlo.subtract")
    assert model_for(subtract).rule(subtract).partial == NO_PARTIAL  # type: ignore[union-attr]


def test_select_and_scatter_rule() -> None:
    """Overlapping windows (3 wide, stride 2) scatter across blocks: not a loop."""
    op = only_op(
        '  %z = stablehlo.constant dense<0.0> : tensor<f32>\n'
        '  %0 = "stablehlo.select_and_scatter"(%x, %g, %z) <{padding = '
        "dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 2>, "
        "window_strides = array<i64: 2, 2>}> ({\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "    stablehlo.return %c : tensor<i1>\n"
        "  }, {\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %s = stablehlo.add %a, %b : tensor<f32>\n"
        "    stablehlo.return %s : tensor<f32>\n"
        "  }) : (tensor<8x8xf32>, tensor<4x4xf32>, tensor<f32>) -> tensor<8x8xf32>",
        "%x: tensor<8x8xf32>, %g: tensor<4x4xf32>",
    )
    assert indexed(op) == ([[F, T], [F, T], []], [[F, T]])
    rule = model_for(op).rule(op)  # type: ignore[union-attr]
    assert rule.partial.accepts(1, ReductionKind.SUM)
    assert not rule.partial.accepts(0, ReductionKind.SUM) and rule.accumulators == (2,)


@pytest.mark.parametrize(
    ("value", "low", "high", "kinds"),
    [
        ("0.0", [1, 0], [0, 0], {ReductionKind.SUM, ReductionKind.MAX, ReductionKind.MIN}),
        ("1.0", [0, 0], [0, 2], {ReductionKind.MAX, ReductionKind.MIN}),
        ("1.0", [0, 0], [0, 0], {ReductionKind.SUM, ReductionKind.MAX, ReductionKind.MIN}),
    ],
)
def test_pad_rule(value: str, low: list[int], high: list[int], kinds: set) -> None:
    """Padded dims stay whole; a partial sum passes only padded with 0 (or not padded),
    partial max and min with any value."""
    out = f"{4 + low[0] + high[0]}x{4 + low[1] + high[1]}"
    op = only_op(
        f"  %v = stablehlo.constant dense<{value}> : tensor<f32>\n"
        f"  %0 = stablehlo.pad %x, %v, low = {low}, high = {high}, interior = [0, 0] : "
        f"(tensor<4x4xf32>, tensor<f32>) -> tensor<{out}xf32>",
        "%x: tensor<4x4xf32>",
    )
    operands, results = indexed(op)
    assert operands[0] == results[0] == [low[0] + high[0] == 0, low[1] + high[1] == 0]
    rule = model_for(op).rule(op)  # type: ignore[union-attr]
    assert set(rule.partial.kinds) == kinds and rule.partial.operands == (0,)


def test_reverse_rule() -> None:
    op = only_op("  %0 = stablehlo.reverse %x, dims = [0, 2] : tensor<2x3x4xf32>",
                 "%x: tensor<2x3x4xf32>")
    assert indexed(op) == ([[F, T, F]], [[F, T, F]])


# ---------------------------------------------------------------- every loop, alone

CONVOLUTIONS = {
    "same_3x3": ("[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", "pad = [[1, 1], [1, 1]]",
                 (1, 1), (4, 8, 8, 4), (3, 3, 4, 8)),
    "same_even_2x2": ("[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", "pad = [[0, 1], [1, 0]]",
                      (1, 1), (4, 8, 8, 4), (2, 2, 4, 8)),
    "dilated_reversed": ("[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]",
                         "pad = [[2, 2], [1, 1]], rhs_dilate = [2, 1], reverse = [true, false]",
                         (1, 1), (4, 4, 8, 8), (8, 4, 3, 3)),
    "patchify": ("[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", "stride = [2, 2]",
                 (1, 1), (4, 8, 8, 4), (2, 2, 4, 8)),
    "strided_same": ("[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]",
                     "stride = [2, 2], pad = [[0, 1], [0, 1]]",
                     (1, 1), (4, 8, 8, 4), (3, 3, 4, 8)),
    "resnet_stem": ("[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]",
                    "stride = [2, 2], pad = [[2, 3], [2, 3]]",
                    (1, 1), (4, 16, 16, 4), (7, 7, 4, 8)),
    "transposed": ("[b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]",
                   "pad = [[1, 1], [1, 1]], lhs_dilate = [2, 2]",
                   (1, 1), (4, 4, 4, 4), (3, 3, 8, 4)),
    "depthwise": ("[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", "pad = [[1, 1], [1, 1]]",
                  (4, 1), (4, 8, 8, 4), (3, 3, 1, 8)),
    "grouped": ("[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", "pad = [[1, 1], [1, 1]]",
                (2, 1), (4, 8, 8, 4), (3, 3, 2, 8)),
    "depthwise_kernel_grad": ("[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]", "pad = [[1, 1], [1, 1]]",
                              (1, 4), (4, 8, 8, 4), (4, 8, 8, 8)),
}


def conv_text(
    name: str, result: str = "tensor<1xf32>", lhs_split: str = "[]", rhs_split: str = "[]"
) -> str:
    """The convolution `name` on operands split as given, its result gathered."""
    dims, window, (groups, batch_groups), lhs, rhs = CONVOLUTIONS[name]
    lhs_t, rhs_t = (f"tensor<{'x'.join(map(str, s))}xf32>" for s in (lhs, rhs))
    return f"""
shard.grid @g(shape = 4)
func.func @main(%x: {lhs_t}, %w: {rhs_t}) -> {result} {{
  %sx = shard.sharding @g split_axes = {lhs_split} : !shard.sharding
  %x_s = shard.shard %x to %sx : {lhs_t}
  %sw = shard.sharding @g split_axes = {rhs_split} : !shard.sharding
  %w_s = shard.shard %w to %sw : {rhs_t}
  %y = stablehlo.convolution(%x_s, %w_s) dim_numbers = {dims}, window = {{{window}}} \
{{batch_group_count = {batch_groups} : i64, feature_group_count = {groups} : i64}} \
: ({lhs_t}, {rhs_t}) -> {result}
  %rep = shard.sharding @g split_axes = [] : !shard.sharding
  %y_s = shard.shard %y to %rep annotate_for_users : {result}
  func.return %y_s : {result}
}}"""


def split_on(m, loop: int) -> str:
    return "[" + ", ".join("[0]" if dim == loop else "[]" for dim in dim_loops(m)) + "]"


@pytest.mark.parametrize("name", CONVOLUTIONS)
def test_every_convolution_loop_split_alone_on_4_devices(name: str) -> None:
    """Each loop of the rule, split on its own over 4 devices (every operand dim it
    indexes split, nothing else): the convolution runs on blocks and matches one device."""
    (probe,) = [o for o in parse(conv_text(name)).walk() if isinstance(o, hlo.ConvolutionOp)]
    result = f"tensor<{'x'.join(map(str, probe.expected_result_shape()))}xf32>"
    (op,) = [
        o for o in parse(conv_text(name, result)).walk() if isinstance(o, hlo.ConvolutionOp)
    ]
    rule = model_for(op).rule(op)  # type: ignore[union-attr]
    assert rule.loops, name
    lhs_map, rhs_map = rule.operand_maps
    for loop in range(len(rule.loops)):
        text = conv_text(name, result, split_on(lhs_map, loop), split_on(rhs_map, loop))
        report = run_module(parse(text), 4, seed=loop)
        assert report.match, f"{name}, loop {loop} ({rule.loops[loop]}): {report.max_abs_error}"
        (local,) = [o for o in report.stablehlo.walk() if isinstance(o, hlo.ConvolutionOp)]
        assert (local.lhs.type, local.rhs.type) != (op.lhs.type, op.rhs.type), (
            f"{name}, loop {loop}: the convolution ran on whole operands"
        )
