"""Shardy's `sdy` dialect, as much of it as JAX prints for `jax.jit` with shardings and
for `jax.shard_map`.

`import-sdy` reads it and turns it into `shard` annotations. Pretty forms are Shardy's,
as JAX 0.10 prints them:

    sdy.mesh @mesh = <["data"=2, "model"=4]>
    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}
    %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"model", ?}]> : tensor<8x32xf32>

A dim's sharding lists axes major to minor, closed (`{"a"}`) or open (`{"a", ?}`),
with an optional priority (`{"a"}p1`); `replicated={...}` and `unreduced={...}` name
axes the tensor is replicated over, or holds unreduced sums over. Sub-axes
(`"a":(1)2`) parse and are kept as written.

`shard_map` prints an `sdy.manual_computation`: its body is per-device code over the
manual axes (block arguments and returned values are the global types divided by those
axes), still global over the free ones:

    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"data"}, {}]>]
        out_shardings=[<@mesh, [{"data"}, {}]>] manual_axes={"data"}
        (%arg1: tensor<4x16xf32>) { ... sdy.return %2 : tensor<4x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>

Shardy's other region ops and explicit collectives parse only far enough to be refused
with a located error.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from math import prod
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IntAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    OpaqueSyntaxAttribute,
    Operation,
    ParametrizedAttribute,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    RecursiveMemoryEffect,
    ReturnLike,
    SingleBlockImplicitTerminator,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from xshard.dialects.parsing import parse_bounded_integer, parse_signed_integer
from xshard.dialects.shard.grid_ops import GridOp
from xshard.dialects.stablehlo.checks import fail
from xshard.dialects.stablehlo.syntax import (
    parse_attr_dict,
    parse_function_type,
    parse_keyword_equal,
    print_attr_dict,
    resolve,
)


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

    def mesh_text(self) -> str:
        """`@mesh`, or an inline `mesh<[...]>`."""
        if isinstance(self.mesh, SymbolRefAttr):
            return f"@{self.mesh.root_reference.data}"
        assert isinstance(self.mesh, MeshAttr)
        return "mesh" + self.mesh.text()

    def body(self) -> str:
        mesh = self.mesh_text()
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


_FACTOR = re.compile(r"z_\d+|[a-z]")
"""Shardy names factors `i`, `j`, ... `z`, then `z_1`, `z_2`, ...; a dim of several
factors runs their names together (`ij`)."""

RULE_SETS = ("reduction", "need_replication", "blocked_propagation", "permutation")
"""The factor sets an `op_sharding_rule` may list after its sizes, in Shardy's order."""


@irdl_attr_definition
class OpShardingRuleAttr(ParametrizedAttribute):
    """`<([b, i, j])->([b, k, l], [b]) {b=4, i=8, j=8, k=8, l=8}, custom>`: each operand's
    and result's dims as factors, the factors' sizes, the factors of each of `RULE_SETS`
    (`reduction={j}`), and whether the rule came from the op's author (`custom`), as JAX
    prints it on the custom calls of its linear algebra kernels."""

    name = "sdy.op_sharding_rule"

    operands: ArrayAttr[ArrayAttr[ArrayAttr[StringAttr]]]
    results: ArrayAttr[ArrayAttr[ArrayAttr[StringAttr]]]
    sizes: ArrayAttr[ArrayAttr[Attribute]]
    """(factor name, size) pairs, in the order written."""
    sets: ArrayAttr[ArrayAttr[StringAttr]]
    """The factors of each of `RULE_SETS`, in that order."""
    custom: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def dim() -> ArrayAttr[StringAttr]:
            name = parser.parse_identifier()
            factors = _FACTOR.findall(name)
            if "".join(factors) != name:
                parser.raise_error(f"'{name}' is not a run of factor names")
            return ArrayAttr(StringAttr(f) for f in factors)

        def tensor() -> ArrayAttr[ArrayAttr[StringAttr]]:
            return ArrayAttr(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, dim))

        def tensors() -> ArrayAttr[ArrayAttr[ArrayAttr[StringAttr]]]:
            return ArrayAttr(parser.parse_comma_separated_list(parser.Delimiter.PAREN, tensor))

        def size() -> ArrayAttr[Attribute]:
            name = parser.parse_identifier()
            parser.parse_punctuation("=")
            return ArrayAttr((StringAttr(name), IntAttr(parse_bounded_integer(parser, 0, 2**63))))

        with parser.in_angle_brackets():
            operands = tensors()
            parser.parse_punctuation("->")
            results = tensors()
            sizes: list[ArrayAttr[Attribute]] = []
            if parser.parse_optional_punctuation("{") is not None:
                sizes = parser.parse_comma_separated_list(parser.Delimiter.NONE, size)
                parser.parse_punctuation("}")
            sets: dict[str, list[StringAttr]] = {}
            for key in RULE_SETS:
                if parser.parse_optional_keyword(key) is not None:
                    parser.parse_punctuation("=")
                    sets[key] = parser.parse_comma_separated_list(
                        parser.Delimiter.BRACES, lambda: StringAttr(parser.parse_identifier())
                    )
            custom = parser.parse_optional_punctuation(",") is not None
            if custom:
                parser.parse_keyword("custom")
        return (
            operands,
            results,
            ArrayAttr(sizes),
            ArrayAttr(ArrayAttr(sets.get(key, [])) for key in RULE_SETS),
            IntAttr(int(custom)),
        )

    def print_parameters(self, printer: Printer) -> None:
        def tensors(values: ArrayAttr[ArrayAttr[ArrayAttr[StringAttr]]]) -> str:
            return ", ".join(
                "[" + ", ".join("".join(f.data for f in d) for d in t) + "]" for t in values
            )

        text = f"<({tensors(self.operands)})->({tensors(self.results)})"
        if self.sizes.data:
            text += " {" + ", ".join(f"{n.data}={s.data}" for n, s in self.sizes) + "}"  # type: ignore[attr-defined]
        for key, factors in zip(RULE_SETS, self.sets, strict=True):
            if factors.data:
                text += f" {key}={{" + ", ".join(f.data for f in factors) + "}"
        printer.print_string(text + (", custom>" if self.custom.data else ">"))

    def special(self) -> set[str]:
        """The factors of any of `RULE_SETS`."""
        return {f.data for factors in self.sets for f in factors}


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


@irdl_attr_definition
class ManualAxesAttr(ParametrizedAttribute, OpaqueSyntaxAttribute):
    """`{"a", "b"}`: the axes a manual computation's body is per-device code over.

    Shardy's `ArrayOfAttr`, so generically `#sdy<manual_axes{"a", "b"}>`. Whole axes
    only, as in Shardy: a body is never manual over part of an axis."""

    name = "sdy.manual_axes"

    axes: ArrayAttr[StringAttr]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        names = parser.parse_comma_separated_list(
            parser.Delimiter.BRACES, parser.parse_str_literal
        )
        return (ArrayAttr(StringAttr(n) for n in names),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(self.text())

    def text(self) -> str:
        return "{" + ", ".join(f'"{a.data}"' for a in self.axes) + "}"


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


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`sdy.return %a, %b : T, U`: what a manual computation's body gives back."""

    name = "sdy.return"

    values = var_operand_def()
    traits = lazy_traits_def(
        lambda: (IsTerminator(), ReturnLike(), HasParent(ManualComputationOp), Pure())
    )

    @classmethod
    def parse(cls, parser: Parser) -> ReturnOp:
        attrs = parser.parse_optional_attr_dict()
        values: list[SSAValue] = []
        if (first := parser.parse_optional_unresolved_operand()) is not None:
            operands = [first]
            while parser.parse_optional_punctuation(",") is not None:
                operands.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            values = resolve(parser, operands, types)
        return cls.create(operands=values, attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self)
        if self.values:
            printer.print_string(" ")
            printer.print_list(self.values, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.values], printer.print_attribute)


def _parse_sharding_list(parser: Parser) -> TensorShardingPerValueAttr:
    """`[<@mesh, [...]>, ...]`: Shardy's stripped `TensorShardingPerValueAttr`."""

    def one() -> TensorShardingAttr:
        with parser.in_angle_brackets():
            return TensorShardingAttr(*TensorShardingAttr.parse_body(parser))

    return TensorShardingPerValueAttr(
        ArrayAttr(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, one))
    )


def _sharding_list(shardings: TensorShardingPerValueAttr) -> str:
    return "[" + ", ".join(f"<{s.body()}>" for s in shardings.shardings) + "]"


def _axis_name(ref: str) -> str:
    """The axis a reference is part of (`"a":(1)2` is part of `"a"`)."""
    return ref.partition(":")[0]


def _axis_size(ref: str, sizes: dict[str, int]) -> int:
    name, colon, rest = ref.partition(":")
    return int(rest.rpartition(")")[2]) if colon else sizes[name]


def _manual_size(axes: Sequence[str], manual: set[str], sizes: dict[str, int]) -> int:
    """How many pieces the manual axes among a dim's `axes` cut it into."""
    return prod(_axis_size(a, sizes) for a in axes if _axis_name(a) in manual)


@irdl_op_definition
class ManualComputationOp(IRDLOperation):
    """`shard_map`: a body of per-device code over `manual_axes`, with its own collectives.

    Operand i enters as block argument i, laid out by `in_shardings[i]`; returned value
    i leaves as result i, laid out by `out_shardings[i]`. Inside, each tensor is the
    global one divided by the manual axes of its sharding (`local_type`), and stays
    global over the free axes, over which the body may still be partitioned."""

    name = "sdy.manual_computation"

    tensors = var_operand_def()
    in_shardings = prop_def(TensorShardingPerValueAttr)
    out_shardings = prop_def(TensorShardingPerValueAttr)
    manual_axes = prop_def(ManualAxesAttr)
    results_ = var_result_def()
    body = region_def("single_block")
    traits = traits_def(
        IsolatedFromAbove(), SingleBlockImplicitTerminator(ReturnOp), RecursiveMemoryEffect()
    )

    def manual_axis_names(self) -> list[str]:
        return [a.data for a in self.manual_axes.axes]

    @property
    def returned(self) -> ReturnOp:
        """The body's `sdy.return`."""
        terminator = self.body.block.last_op
        assert isinstance(terminator, ReturnOp)
        return terminator

    def mesh(self) -> MeshAttr | None:
        """The mesh every in and out sharding names (None with no shardings, or an
        undeclared mesh: the verifier says which)."""
        shardings = [*self.in_shardings.shardings, *self.out_shardings.shardings]
        return _resolve_mesh(self, shardings[0]) if shardings else None

    def local_type(self, global_type: Attribute, sharding: TensorShardingAttr,
                   mesh: MeshAttr) -> Attribute:
        """The type the body sees of a value of `global_type` laid out by `sharding`:
        each dim divided by the sizes of the manual axes it is split over."""
        if not isinstance(global_type, TensorType):
            return global_type
        sizes, manual = dict(mesh.axes), set(self.manual_axis_names())
        dims = []
        for d, size in enumerate(global_type.get_shape()):
            pieces = _manual_size(sharding.axes_of(d), manual, sizes)
            dims.append(size if size == DYNAMIC_INDEX else size // pieces)
        return TensorType(global_type.element_type, dims)

    @classmethod
    def parse(cls, parser: Parser) -> ManualComputationOp:
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parse_keyword_equal(parser, "in_shardings")
        in_shardings = _parse_sharding_list(parser)
        parse_keyword_equal(parser, "out_shardings")
        out_shardings = _parse_sharding_list(parser)
        parse_keyword_equal(parser, "manual_axes")
        manual_axes = ManualAxesAttr(*ManualAxesAttr.parse_parameters(parser))
        args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_argument)
        body = parser.parse_region(args)
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        fn = parse_function_type(parser)
        return cls.create(
            operands=resolve(parser, operands, fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties={
                **props,
                "in_shardings": in_shardings,
                "manual_axes": manual_axes,
                "out_shardings": out_shardings,
            },
            attributes=attrs,
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.tensors, printer.print_operand)
        printer.print_string(
            f") in_shardings={_sharding_list(self.in_shardings)}"
            f" out_shardings={_sharding_list(self.out_shardings)}"
            f" manual_axes={self.manual_axes.text()} ("
        )
        printer.print_list(self.body.block.args, printer.print_block_argument)
        printer.print_string(") ")
        printer.print_region(self.body, print_entry_block_args=False)
        print_attr_dict(printer, self, elided=("in_shardings", "out_shardings", "manual_axes"))
        printer.print_string(" : ")
        printer.print_function_type(
            [v.type for v in self.tensors], [r.type for r in self.results_]
        )

    def verify_(self) -> None:
        """Shardy's `ManualComputationOp::verify` and `verifyManualComputationValue`."""
        manual = self.manual_axis_names()
        if len(set(manual)) != len(manual):
            fail(self, f"manual_axes name an axis twice: {self.manual_axes.text()}")
        parent = self.parent_op()
        while parent is not None:
            if isinstance(parent, ManualComputationOp):
                for axis in set(manual) & set(parent.manual_axis_names()):
                    fail(self, f'operates on axis "{axis}" which is already bound by a '
                               "parent sdy.manual_computation op")
            parent = parent.parent_op()
        block = self.body.block
        terminator = block.last_op
        if not isinstance(terminator, ReturnOp):
            return  # SingleBlockImplicitTerminator says so
        sides = (
            ("operand", list(self.tensors), list(block.args), self.in_shardings),
            ("result", list(self.results_), list(terminator.values), self.out_shardings),
        )
        for kind, values, locals_, shardings in sides:
            if len(shardings.shardings) != len(values):
                fail(self, f"{kind} shardings don't match number of values: "
                           f"{len(shardings.shardings)} shardings vs {len(values)} values")
            if len(locals_) != len(values):
                fail(self, f"number of op {kind}s and region {kind}s must match. Op has "
                           f"{len(values)} op {kind}s and {len(locals_)} region {kind}s")
        refs: dict[Attribute, TensorShardingAttr] = {}
        for kind, _, _, shardings in sides:
            for sharding in shardings.shardings:
                if _resolve_mesh(self, sharding) is None:
                    fail(self, f"{kind} - unknown mesh: {sharding.mesh_text()}")
                refs[sharding.mesh] = sharding
        if len(refs) > 1:
            fail(self, "all in and out shardings must be bound to the same mesh, got "
                       + " and ".join(s.mesh_text() for s in refs.values()))
        mesh = self.mesh()
        if mesh is None:
            return
        sizes = dict(mesh.axes)
        for axis in manual:
            if axis not in sizes:
                fail(self, f'unknown manual axis: "{axis}"')
        for kind, values, locals_, shardings in sides:
            for i, (value, local, sharding) in enumerate(
                zip(values, locals_, shardings.shardings, strict=True)
            ):
                self._verify_value(kind, i, value.type, local.type, sharding, mesh)

    def _verify_value(self, kind: str, index: int, global_type: Attribute,
                      local_type: Attribute, sharding: TensorShardingAttr,
                      mesh: MeshAttr) -> None:
        rank = global_type.get_num_dims() if isinstance(global_type, TensorType) else 0
        if len(sharding.dim_axes) != rank:
            fail(self, f"{kind} - sharding doesn't match tensor rank: "
                       f"{len(sharding.dim_axes)} != {rank}")
        sizes = dict(mesh.axes)
        manual = set(self.manual_axis_names())
        for d in range(rank):
            axes = sharding.axes_of(d)
            for a in axes:
                if _axis_name(a) not in sizes:
                    fail(self, f'{kind} - unknown axis name: "{_axis_name(a)}"')
            is_manual = [_axis_name(a) in manual for a in axes]
            for j in range(1, len(axes)):
                if is_manual[j] and not is_manual[j - 1]:
                    fail(self, f"{kind} sharding at index {index} must have all manual axes "
                               f"come before free axes in its dimension sharding at index {d}."
                               f" Saw manual axis {_print_axis_ref(axes[j])} after free axis "
                               f"{_print_axis_ref(axes[j - 1])}")
        if not isinstance(global_type, TensorType):
            return
        for d, size in enumerate(global_type.get_shape()):
            factor = _manual_size(sharding.axes_of(d), manual, sizes)
            if size != DYNAMIC_INDEX and size % factor:
                fail(self, f"{kind} dimension size {size} is not divisible by the manual axes "
                           f"size {factor}")
        expected = self.local_type(global_type, sharding, mesh)
        if expected != local_type:
            fail(self, f"{kind} shape, corresponding sharding, and region {kind} shape at "
                       f"index {index} must match. Expected local shape '{expected}', actual "
                       f"local shape '{local_type}'")


def _resolve_mesh(op: Operation, sharding: TensorShardingAttr) -> MeshAttr | None:
    """The mesh a sharding names: inline, or the `sdy.mesh` of that symbol."""
    if isinstance(sharding.mesh, MeshAttr):
        return sharding.mesh
    assert isinstance(sharding.mesh, SymbolRefAttr)
    try:
        found = SymbolTable.lookup_symbol(op, sharding.mesh)
    except ValueError:  # no symbol table above `op`
        return None
    if isinstance(found, GridOp) and (names := found.axis_names()) is not None:
        # the grid import-sdy made of the mesh, which keeps its axis names for this op
        sizes = found.shape_tuple()
        return MeshAttr(
            ArrayAttr(StringAttr(n) for n in names),
            ArrayAttr(IntAttr(s or 0) for s in sizes),
            ArrayAttr([]),
        )
    return found.mesh if isinstance(found, MeshOp) else None


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
    [MeshOp, ShardingConstraintOp, ManualComputationOp, ReturnOp, *_REFUSED],
    [MeshAttr, TensorShardingAttr, TensorShardingPerValueAttr, ManualAxesAttr, OpShardingRuleAttr],
)

