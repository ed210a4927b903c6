"""Shardy's `sdy` dialect, as much of it as JAX prints for `jax.jit` with shardings.

`import-sdy` reads it and turns it into `shard` annotations; nothing else in xshard
uses it. Pretty forms are Shardy's, as JAX 0.10 prints them:

    sdy.mesh @mesh = <["data"=2, "model"=4]>
    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}
    %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"model", ?}]> : tensor<8x32xf32>

A dim's sharding lists axes major to minor, closed (`{"a"}`) or open (`{"a", ?}`),
with an optional priority (`{"a"}p1`); `replicated={...}` and `unreduced={...}` name
axes the tensor is replicated over, or holds unreduced sums over. Sub-axes
(`"a":(1)2`) parse and are kept as written. The region ops Shardy adds for
`shard_map` and friends parse only far enough to be refused with a located error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, IntAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from xshard.dialects.parsing import parse_bounded_integer, parse_signed_integer
from xshard.dialects.stablehlo.syntax import parse_attr_dict, print_attr_dict


def _parse_axis_ref(parser: AttrParser) -> str:
    """`"a"` or a sub-axis `"a":(1)2`, kept as written."""
    name = parser.parse_str_literal()
    if parser.parse_optional_punctuation(":") is None:
        return name
    parser.parse_punctuation("(")
    pre = parse_signed_integer(parser, 64)
    parser.parse_punctuation(")")
    size = parse_signed_integer(parser, 64)
    return f"{name}:({pre}){size}"


def _print_axis_ref(ref: str) -> str:
    name, colon, rest = ref.partition(":")
    return f'"{name}"' + (f":{rest}" if colon else "")


@irdl_attr_definition
class MeshAttr(ParametrizedAttribute):
    """`<["a"=2, "b"=4]>`, optionally `device_ids=[...]` (the devices in row-major order)."""

    name = "sdy.mesh"

    axis_names: ArrayAttr[StringAttr]
    axis_sizes: ArrayAttr[IntAttr]
    device_ids: ArrayAttr[IntAttr]
    """Empty: iota, device k at the k-th place."""

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        names: list[str] = []
        sizes: list[int] = []

        def axis() -> None:
            names.append(parser.parse_str_literal())
            parser.parse_punctuation("=")
            sizes.append(parse_bounded_integer(parser, 0, 2**63))

        with parser.in_angle_brackets():
            parser.parse_comma_separated_list(parser.Delimiter.SQUARE, axis)
            ids: list[int] = []
            if parser.parse_optional_punctuation(","):
                parser.parse_keyword("device_ids")
                parser.parse_punctuation("=")
                ids = parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, lambda: parse_bounded_integer(parser, 0, 2**63)
                )
        return (
            ArrayAttr(StringAttr(n) for n in names),
            ArrayAttr(IntAttr(s) for s in sizes),
            ArrayAttr(IntAttr(i) for i in ids),
        )

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(self.text())

    def text(self) -> str:
        axes = ", ".join(f'"{name}"={size}' for name, size in self.axes)
        ids = ""
        if self.device_ids.data:
            ids = ", device_ids=[" + ", ".join(str(i.data) for i in self.device_ids) + "]"
        return f"<[{axes}]{ids}>"

    @property
    def axes(self) -> list[tuple[str, int]]:
        return [(n.data, s.data) for n, s in zip(self.axis_names, self.axis_sizes, strict=True)]

    def verify(self) -> None:
        names = [n.data for n in self.axis_names]
        if len(set(names)) != len(names):
            raise VerifyException(f"#sdy.mesh names an axis twice: {names}")


@irdl_attr_definition
class TensorShardingAttr(ParametrizedAttribute):
    """`<@mesh, [{"a"}, {"b", ?}]>`, optionally `replicated={...}`, `unreduced={...}`.

    Each dim: its axes (`dim_axes`), whether it is open (`dim_open`), and its priority
    (`dim_priority`, -1 for none)."""

    name = "sdy.sharding"

    mesh: Attribute
    """A `SymbolRefAttr` naming an `sdy.mesh`, or an inline `MeshAttr`."""
    dim_axes: ArrayAttr[ArrayAttr[StringAttr]]
    dim_open: ArrayAttr[IntAttr]
    dim_priority: ArrayAttr[IntAttr]
    replicated_axes: ArrayAttr[StringAttr]
    unreduced_axes: ArrayAttr[StringAttr]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return cls.parse_body(parser)

    @classmethod
    def parse_body(cls, parser: AttrParser) -> Sequence[Attribute]:
        """What stands between the angle brackets (ops print it without `#sdy.sharding`)."""
        if (ref := parser.parse_optional_symbol_name()) is not None:
            mesh: Attribute = SymbolRefAttr(ref.data)
        else:
            parser.parse_keyword("mesh")
            mesh = MeshAttr(*MeshAttr.parse_parameters(parser))
        parser.parse_punctuation(",")
        dims: list[list[str]] = []
        opens: list[int] = []
        priorities: list[int] = []

        def dim() -> None:
            axes: list[str] = []
            is_open = False
            parser.parse_punctuation("{")
            if parser.parse_optional_punctuation("}") is None:
                while True:
                    if parser.parse_optional_punctuation("?") is not None:
                        is_open = True
                    else:
                        axes.append(_parse_axis_ref(parser))
                    if parser.parse_optional_punctuation(",") is None:
                        break
                parser.parse_punctuation("}")
            priority = -1
            if (word := parser.parse_optional_identifier()) is not None:
                if not (word.startswith("p") and word[1:].isdigit()):
                    parser.raise_error(f"expected a priority like 'p0', got '{word}'")
                priority = int(word[1:])
            dims.append(axes)
            opens.append(int(is_open))
            priorities.append(priority)

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, dim)
        named: dict[str, list[str]] = {"replicated": [], "unreduced": []}
        while parser.parse_optional_punctuation(",") is not None:
            key = parser.parse_identifier()
            if key not in named:
                parser.raise_error(f"expected 'replicated' or 'unreduced', got '{key}'")
            parser.parse_punctuation("=")
            named[key] = parser.parse_comma_separated_list(
                parser.Delimiter.BRACES, lambda: _parse_axis_ref(parser)
            )
        return (
            mesh,
            ArrayAttr(ArrayAttr(StringAttr(a) for a in axes) for axes in dims),
            ArrayAttr(IntAttr(o) for o in opens),
            ArrayAttr(IntAttr(p) for p in priorities),
            ArrayAttr(StringAttr(a) for a in named["replicated"]),
            ArrayAttr(StringAttr(a) for a in named["unreduced"]),
        )

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<" + self.body() + ">")

    def body(self) -> str:
        if isinstance(self.mesh, SymbolRefAttr):
            mesh = f"@{self.mesh.root_reference.data}"
        else:
            assert isinstance(self.mesh, MeshAttr)
            mesh = "mesh" + self.mesh.text()
        dims = []
        for axes, is_open, priority in zip(
            self.dim_axes, self.dim_open, self.dim_priority, strict=True
        ):
            parts = [_print_axis_ref(a.data) for a in axes]
            if is_open.data:
                parts.append("?")
            suffix = f"p{priority.data}" if priority.data >= 0 else ""
            dims.append("{" + ", ".join(parts) + "}" + suffix)
        text = f"{mesh}, [{', '.join(dims)}]"
        for key, axes in (("replicated", self.replicated_axes), ("unreduced", self.unreduced_axes)):
            if axes.data:
                text += f", {key}={{" + ", ".join(_print_axis_ref(a.data) for a in axes) + "}"
        return text

    def verify(self) -> None:
        n = len(self.dim_axes)
        if len(self.dim_open) != n or len(self.dim_priority) != n:
            raise VerifyException("#sdy.sharding needs one open flag and priority per dim")

    def axes_of(self, dim: int) -> list[str]:
        return [a.data for a in self.dim_axes.data[dim]]


@irdl_attr_definition
class TensorShardingPerValueAttr(ParametrizedAttribute):
    """`<[<@mesh, [...]>, ...]>`: one sharding per result of an op."""

    name = "sdy.sharding_per_value"

    shardings: ArrayAttr[TensorShardingAttr]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def one() -> TensorShardingAttr:
            with parser.in_angle_brackets():
                return TensorShardingAttr(*TensorShardingAttr.parse_body(parser))

        with parser.in_angle_brackets():
            values = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, one)
        return (ArrayAttr(values),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<[" + ", ".join(f"<{s.body()}>" for s in self.shardings) + "]>")


@irdl_op_definition
class MeshOp(IRDLOperation):
    """`sdy.mesh @name = <["a"=2, "b"=4]>`: a named mesh of devices."""

    name = "sdy.mesh"

    sym_name = prop_def(StringAttr)
    mesh = prop_def(MeshAttr)
    traits = traits_def(SymbolOpInterface())

    @classmethod
    def parse(cls, parser: Parser) -> MeshOp:
        name = parser.parse_symbol_name()
        parser.parse_punctuation("=")
        mesh = MeshAttr(*MeshAttr.parse_parameters(parser))
        attrs = parser.parse_optional_attr_dict()
        return cls.create(properties={"sym_name": name, "mesh": mesh}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{self.sym_name.data} = ")
        self.mesh.print_parameters(printer)
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)


@irdl_op_definition
class ShardingConstraintOp(IRDLOperation):
    """`%y = sdy.sharding_constraint %x <@mesh, [...]> : tensor<...>`: `%x`, laid out so."""

    name = "sdy.sharding_constraint"

    input = operand_def()
    sharding = prop_def(TensorShardingAttr)
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> ShardingConstraintOp:
        operand = parser.parse_unresolved_operand()
        with parser.in_angle_brackets():
            sharding = TensorShardingAttr(*TensorShardingAttr.parse_body(parser))
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(operand, t)],
            result_types=[t],
            properties={**props, "sharding": sharding},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        printer.print_string(f" <{self.sharding.body()}>")
        print_attr_dict(printer, self, elided=("sharding",))
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.input.type != self.result.type:
            raise VerifyException("sdy.sharding_constraint keeps the type of its operand")


class _Refused(IRDLOperation):
    """A Shardy op xshard does not take: parsing it is a located error saying why."""

    WHY: ClassVar[str] = ""

    @classmethod
    def parse(cls, parser: Parser) -> IRDLOperation:
        parser.raise_error(f"'{cls.name}' is not supported by xshard: {cls.WHY}")


def _refused(op_name: str, why: str) -> type[IRDLOperation]:
    namespace = {"name": op_name, "WHY": why, "__annotations__": {"WHY": ClassVar[str]}}
    cls = type(op_name.replace(".", "_"), (_Refused,), namespace)
    return irdl_op_definition(cls)


_REFUSED = [
    _refused(
        "sdy.manual_computation",
        "a shard_map region (per-device code with its own collectives) cannot be "
        "expressed as shard annotations; write the body without shard_map",
    ),
    _refused("sdy.named_computation", "named computations are not imported"),
    _refused("sdy.propagation_barrier", "propagation barriers are not imported"),
    _refused("sdy.reshard", "explicit reshards are not imported; use a sharding constraint"),
    _refused("sdy.sharding_group", "sharding groups are not imported"),
    _refused("sdy.all_gather", "Shardy's explicit collectives are not imported"),
    _refused("sdy.all_slice", "Shardy's explicit collectives are not imported"),
    _refused("sdy.all_reduce", "Shardy's explicit collectives are not imported"),
    _refused("sdy.all_to_all", "Shardy's explicit collectives are not imported"),
    _refused("sdy.reduce_scatter", "Shardy's explicit collectives are not imported"),
    _refused("sdy.collective_permute", "Shardy's explicit collectives are not imported"),
]


SDY = Dialect(
    "sdy",
    [MeshOp, ShardingConstraintOp, *_REFUSED],
    [MeshAttr, TensorShardingAttr, TensorShardingPerValueAttr],
)

