"""Sharding model of `stablehlo.custom_call`, for the calls xshard knows: JAX's host
callbacks (`jax.pure_callback`, `jax.debug.callback` and `print`, `io_callback`, the
error checks of equinox and diffrax) and its linear algebra kernels (LAPACK on CPU,
cuSOLVER and cuBLAS on GPUs: `jnp.linalg`'s cholesky, lu, qr, eigh, svd, solves).

A callback hands whole arrays to Python: no dim is indexed by a loop, so every operand
is gathered whole and every result comes back whole, each device holding what one
device holds. A kernel's `sdy.sharding_rule` (JAX writes one on each) names the factors
of its dims: a factor that is one whole dim of every operand and every result, and in
none of the rule's special sets, is a batch the kernel runs on any block of (its
`num_batch_dims` are read from the shapes), so it becomes a parallel loop; every other
dim is gathered. Partial sums settle first. Where a side-effecting callback runs is
`guard-host-callbacks`' business. Any other call target is opaque: nothing says which
of its dims may be split.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap

from xshard.dialects import sdy
from xshard.dialects import stablehlo as hlo
from xshard.interfaces.models.common import dims_map, rank
from xshard.interfaces.models.stablehlo_control_flow import WholeModel
from xshard.interfaces.partition_context import PartitionContext
from xshard.interfaces.sharding_interface import Loop, ShardingRule
from xshard.interfaces.sharding_model import UnsupportedOp, register_model

HOST_CALLBACK_PREFIX = "xla_ffi_python_"
"""JAX's host callback targets: `xla_ffi_python_cpu_callback`, `..._gpu_callback` and
their `_partitioned_` forms."""

ON_ONE_DEVICE = "xshard.on_one_device"
"""Marks a host callback JAX runs on one device (`import-sdy` sets it from its
sharding; `guard-host-callbacks` reads it)."""


LINEAR_ALGEBRA_PREFIXES = (
    "lapack_",
    "cusolver_",
    "cublas_",
    "hipsolver_",
    "hipblas_",
    "cu_lu_pivots_to_permutation",
    "hip_lu_pivots_to_permutation",
)
"""JAX's linear algebra kernels: pure functions of their operands."""


def is_host_callback(op: Operation) -> bool:
    return isinstance(op, hlo.CustomCallOp) and op.call_target_name.data.startswith(
        HOST_CALLBACK_PREFIX
    )


SDY_SHARDING_RULE = "sdy.sharding_rule"
WHOLE = WholeModel()


def _batch_rule(op: hlo.CustomCallOp, rule: sdy.OpShardingRuleAttr) -> ShardingRule:
    """One parallel loop per factor that is one whole dim of every tensor of `op`."""
    tensors = [*rule.operands, *rule.results]
    special = rule.special()

    def whole_dims(t: ArrayAttr) -> list[str]:
        return [d.data[0].data for d in t if len(d.data) == 1]

    shared = set(whole_dims(tensors[0])) if tensors else set()
    for t in tensors[1:]:
        shared &= set(whole_dims(t))
    loops = sorted(shared - special)

    def tensor_map(t: ArrayAttr) -> AffineMap:
        names = [d.data[0].data if len(d.data) == 1 else None for d in t]
        return dims_map(len(loops), [loops.index(n) if n in loops else None for n in names])

    tensor_operands = iter(rule.operands)
    return ShardingRule(
        tuple(Loop.parallel() for _ in loops),
        tuple(None if rank(v) is None else tensor_map(next(tensor_operands)) for v in op.operands),
        tuple(tensor_map(t) for t in rule.results),
    )


def _fits(op: hlo.CustomCallOp, rule: sdy.OpShardingRuleAttr) -> bool:
    """Whether `rule` lists a dim for each dim of each tensor operand and result."""
    ranks = [rank(v) for v in (*op.operands, *op.results)]
    return [len(t) for t in (*rule.operands, *rule.results)] == [r for r in ranks if r is not None]


class CustomCallModel:
    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.CustomCallOp)
        target = op.call_target_name.data
        if is_host_callback(op):
            return WHOLE.rule(op)
        if not target.startswith(LINEAR_ALGEBRA_PREFIXES):
            raise UnsupportedOp(
                f"@{target} is opaque to xshard (of custom calls it models JAX's host "
                "callbacks and linear algebra kernels only), so nothing says which dims "
                "it may split"
            )
        found = op.attributes.get(SDY_SHARDING_RULE)
        if isinstance(found, sdy.OpShardingRuleAttr) and _fits(op, found):
            return _batch_rule(op, found)
        return WHOLE.rule(op)

    def partition(self, op: Operation, ctx: PartitionContext) -> None:
        """The kernel on its local blocks; its rule's factor sizes are the global
        ones, so the local call goes without it."""
        new = ctx.clone_local()
        new.attributes.pop(SDY_SHARDING_RULE, None)


register_model(hlo.CustomCallOp)(CustomCallModel())
