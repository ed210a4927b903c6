"""A TCP-style dialect: TCP's ops with upstream syntax, plus contraction and reductions.

Op names, operands, assembly formats and verifier rules follow llvm/mlir-tcp
(`include/mlir-tcp/Dialect/IR/TcpOps.td`, `lib/Dialect/IR/TcpOps.cpp`). Upstream
TCP has no exponential, max/min, contraction or reduction ops; xshard adds
`tcp.exp`, `tcp.max`, `tcp.min`, `tcp.matmul` and `tcp.reduce_{sum,max,min,prod}`
so softmax- and MLP-style programs can be written in TCP alone
(docs/dialects/tcp.md).

Like upstream there is no implicit broadcasting: `tcp.broadcast` only
replicates dimensions of static size 1 and never changes the rank (the RFC
"Broadcasting in TCP" decision); rank changes go through `tensor.expand_shape`.
Reductions keep the reduced dimensions with size 1, which makes them the
inverse of `tcp.broadcast`.

Quantized element types, `tcp.gather_nd` and the symbolic-shape ops are not
provided.

Modules: `attributes`, `checks` (element kinds, shared verifier checks),
`elementwise`, `data_movement`, `structure` (groups, custom ops) and `contraction`
(matmul, reductions).
"""

from xdsl.dialect_interfaces.constant_materialization import ConstantMaterializationInterface
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Attribute, Dialect, Operation

from xshard.dialects.tcp.attributes import (
    RoundingMode,
    RoundingModeAttr,
    Signedness,
    SignednessAttr,
)
from xshard.dialects.tcp.checks import (
    Elements,
    dims_compatible,
    element_kind,
    int_list,
    shapes_compatible,
)
from xshard.dialects.tcp.contraction import (
    MatmulOp,
    ReduceMaxOp,
    ReduceMinOp,
    ReduceOp,
    ReduceProdOp,
    ReduceSumOp,
)
from xshard.dialects.tcp.data_movement import (
    BroadcastOp,
    CastOp,
    ConstOp,
    GatherOp,
    SliceOp,
)
from xshard.dialects.tcp.elementwise import (
    AbsOp,
    AddOp,
    Atan2Op,
    AtanOp,
    BinaryElementwiseOp,
    CeilOp,
    ClampOp,
    CosOp,
    DivFOp,
    DivSIOp,
    DivUIOp,
    ElementwiseOp,
    ExpOp,
    FloorOp,
    IntDivOp,
    LogOp,
    MaxOp,
    MinOp,
    MulOp,
    NegOp,
    RoundEvenOp,
    RoundOp,
    SigmoidOp,
    SinOp,
    SqrtOp,
    SubOp,
    TanhOp,
    UnaryElementwiseOp,
    UnaryFloatOp,
)
from xshard.dialects.tcp.structure import (
    CustomOp,
    GroupOp,
    IsolatedGroupOp,
    YieldOp,
)


class TcpConstantMaterialization(ConstantMaterializationInterface):
    """Lets folding turn a folded tensor value back into a `tcp.const`."""

    def materialize_constant(self, value: Attribute, type: Attribute) -> Operation | None:
        if isinstance(value, DenseIntOrFPElementsAttr) and value.type == type:
            return ConstOp(value)
        return None


TCP = Dialect(
    "tcp",
    [
        TanhOp,
        SigmoidOp,
        SqrtOp,
        CeilOp,
        FloorOp,
        RoundOp,
        RoundEvenOp,
        CosOp,
        SinOp,
        LogOp,
        NegOp,
        AtanOp,
        ExpOp,
        AbsOp,
        AddOp,
        SubOp,
        MulOp,
        DivFOp,
        Atan2Op,
        MaxOp,
        MinOp,
        DivSIOp,
        DivUIOp,
        ClampOp,
        ConstOp,
        CastOp,
        BroadcastOp,
        SliceOp,
        GatherOp,
        YieldOp,
        GroupOp,
        IsolatedGroupOp,
        CustomOp,
        MatmulOp,
        ReduceSumOp,
        ReduceProdOp,
        ReduceMaxOp,
        ReduceMinOp,
    ],
    [SignednessAttr, RoundingModeAttr],
    [TcpConstantMaterialization()],
)

__all__ = [
    "Signedness",
    "SignednessAttr",
    "RoundingMode",
    "RoundingModeAttr",
    "Elements",
    "element_kind",
    "dims_compatible",
    "shapes_compatible",
    "int_list",
    "ElementwiseOp",
    "UnaryElementwiseOp",
    "UnaryFloatOp",
    "BinaryElementwiseOp",
    "TanhOp",
    "SigmoidOp",
    "SqrtOp",
    "CeilOp",
    "FloorOp",
    "RoundOp",
    "RoundEvenOp",
    "CosOp",
    "SinOp",
    "LogOp",
    "NegOp",
    "AtanOp",
    "ExpOp",
    "AbsOp",
    "AddOp",
    "SubOp",
    "MulOp",
    "DivFOp",
    "Atan2Op",
    "MaxOp",
    "MinOp",
    "IntDivOp",
    "DivSIOp",
    "DivUIOp",
    "ClampOp",
    "ConstOp",
    "CastOp",
    "BroadcastOp",
    "SliceOp",
    "GatherOp",
    "YieldOp",
    "GroupOp",
    "IsolatedGroupOp",
    "CustomOp",
    "MatmulOp",
    "ReduceOp",
    "ReduceSumOp",
    "ReduceProdOp",
    "ReduceMaxOp",
    "ReduceMinOp",
    "TCP",
    "TcpConstantMaterialization",
]
