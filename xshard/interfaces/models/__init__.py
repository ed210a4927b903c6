"""Sharding models for payload ops, one module per dialect (MLIR's external models).

Importing this package registers them all; `model_for` is how passes look one up.
"""

from xdsl.ir import Operation

from xshard.interfaces.models import (  # noqa: F401  (each module registers its models)
    arith,
    linalg,
    sdy_manual_computation,
    stablehlo,
    stablehlo_bitcast,
    stablehlo_collectives,
    stablehlo_control_flow,
    stablehlo_convolution,
    stablehlo_custom_call,
    stablehlo_fft,
    stablehlo_indexing,
    stablehlo_pad_reverse,
    stablehlo_triangular_solve,
    stablehlo_windows,
    tcp,
    tensor,
    tosa,
)
from xshard.interfaces.sharding_model import MODELS, ShardingModel


def model_for(op: Operation) -> ShardingModel | None:
    """The model of `op`'s class, if xshard has one."""
    return MODELS.get(type(op))
