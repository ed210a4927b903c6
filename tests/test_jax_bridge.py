"""The jax/XLA bridge: runs that match jax.jit, per-device runs, and the errors that
stand in for XLA's crashes (jax-xla.md §4.3)."""

from __future__ import annotations

import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from xshard.jax import (
    BridgeError,
    compile_spmd,
    import_function,
    lower_to_text,
    module_text,
    run_global,
    run_spmd,
)
from xshard.jax.devices import check_device_order, pick_devices


def stablehlo_dialect_exists() -> bool:
    try:
        from xshard.dialects.stablehlo import StableHLO  # noqa: F401
    except ImportError:
        return False
    return True


needs_stablehlo = pytest.mark.skipif(
    not stablehlo_dialect_exists(),
    reason="xshard.dialects.stablehlo (StableHLO) does not exist yet",
)


def mlp(x, w):
    return jnp.tanh(x @ w) + 1.0


X = np.arange(12, dtype=np.float32).reshape(3, 4) / 10
W = np.linspace(-1, 1, 8, dtype=np.float32).reshape(4, 2)

PARTITION_PLUS_X = """
module @ids attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<2xi32> {mhlo.sharding = "{manual}"})
      -> (tensor<2xi32> {mhlo.sharding = "{manual}"}) {
    %pid = "stablehlo.partition_id"() {mhlo.sharding = "{manual}"} : () -> tensor<ui32>
    %id = stablehlo.convert %pid : (tensor<ui32>) -> tensor<i32>
    %ids = stablehlo.broadcast_in_dim %id, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %y = stablehlo.add %x, %ids : tensor<2xi32>
    return %y : tensor<2xi32>
  }
}"""

SUM_OF_SCALARS = """
module @sum attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<f32> {mhlo.sharding = "{manual}"})
      -> (tensor<f32> {mhlo.sharding = "{manual}"}) {
    %y = "stablehlo.all_reduce"(%x) <{
           channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
           replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    return %y : tensor<f32>
  }
}"""


def per_device_ids(n: int = 4) -> list[np.ndarray]:
    return [np.array([10 * k, 10 * k + 1], np.int32) for k in range(n)]


def test_run_global_equals_jax_jit():
    (got,) = run_global(lower_to_text(mlp, X, W), [X, W], platform="cpu")
    np.testing.assert_allclose(got, np.asarray(jax.jit(mlp)(X, W)), rtol=1e-6)


def test_run_spmd_gives_each_device_its_own_result():
    (outs,) = run_spmd(PARTITION_PLUS_X, [per_device_ids()], 4, platform="cpu")
    for k, out in enumerate(outs):
        np.testing.assert_array_equal(out, [11 * k, 11 * k + 1])


def test_partition_ids_follow_the_device_list_not_device_ids():
    """Devices [7, 5, 3, 1] crash XLA without a device assignment; here partition k is on 7-2k."""
    cpus = jax.devices("cpu")
    devices = [cpus[7], cpus[5], cpus[3], cpus[1]]
    executable = compile_spmd(PARTITION_PLUS_X, 4, devices=devices)
    assert [d.id for d in executable.loaded.local_devices()] == [7, 5, 3, 1]
    (outs,) = executable.run([per_device_ids()])
    for k, out in enumerate(outs):
        np.testing.assert_array_equal(out, [11 * k, 11 * k + 1])


def test_scalar_arguments_run_per_device():
    xs = [np.float32(k + 1) for k in range(4)]
    (outs,) = run_spmd(SUM_OF_SCALARS, [xs], 4, platform="cpu")
    assert [float(o) for o in outs] == [10.0] * 4


def test_hlo_text_shows_the_compiled_collective():
    executable = compile_spmd(SUM_OF_SCALARS, 4, platform="cpu")
    assert "all-reduce(" in executable.hlo_text()


def test_too_few_devices_is_an_error_naming_both_counts():
    text = SUM_OF_SCALARS.replace("num_partitions = 4", "num_partitions = 16")
    with pytest.raises(BridgeError, match=r"needs 16 devices but only 8 cpu devices"):
        compile_spmd(text, 16, platform="cpu")


def test_declared_partitions_must_match_the_device_count():
    with pytest.raises(BridgeError, match=r"declares mhlo.num_partitions = 4 .* for 2 devices"):
        compile_spmd(SUM_OF_SCALARS, 2, platform="cpu")


def test_device_order_mismatch_is_refused():
    cpus = jax.devices("cpu")
    message = r"runs on devices \[1, 0\] but was compiled for \[0, 1\]"
    with pytest.raises(BridgeError, match=message):
        check_device_order(cpus[:2], [cpus[1], cpus[0]])


def test_device_lists_are_checked():
    cpus = jax.devices("cpu")
    with pytest.raises(BridgeError, match="names a device twice"):
        pick_devices(2, devices=[cpus[3], cpus[3]])
    with pytest.raises(BridgeError, match="asked for 4 devices but the device list has 2"):
        pick_devices(4, devices=cpus[:2])


def test_unknown_platform_is_an_error():
    with pytest.raises(BridgeError, match="no tpu devices"):
        pick_devices(1, platform="tpu")


@pytest.mark.parametrize(
    "call",
    [
        "stablehlo.custom_call @xla_ffi_python_cpu_callback(%a)",
        '"stablehlo.custom_call"(%a) <{call_target_name = "xla_ffi_python_cpu_callback"}>',
    ],
)
def test_a_host_callback_is_refused_before_xla(call):
    """Its index names a Python function of the process that lowered it: XLA would call
    through a dangling pointer."""
    text = (
        "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        f"  %b = {call} {{mhlo.backend_config = {{index = 0 : ui64}}}} : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  func.return %b : tensor<4xf32>\n}\n"
    )
    with pytest.raises(BridgeError, match="@xla_ffi_python_cpu_callback, a host callback"):
        run_global(text, [np.ones(4, np.float32)])


def test_xla_compile_errors_carry_xlas_message():
    text = PARTITION_PLUS_X.replace("stablehlo.add", "stablehlo.bogus_add")
    with pytest.raises(BridgeError, match=r"XLA rejected the module: .*'stablehlo.bogus_add'"):
        compile_spmd(text, 4, platform="cpu")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([[np.zeros(3, np.int32)] * 4], r"device 0 is int32\[3\] .* expects int32\[2\]"),
        ([[np.zeros(2, np.float32)] * 4], r"device 0 is float32\[2\] .* expects int32\[2\]"),
        ([per_device_ids()[:3]], r"argument 0 has 3 per-device values, expected one for each"),
        ([per_device_ids(), per_device_ids()], r"takes 1 arguments, got 2"),
    ],
)
def test_bad_per_device_inputs_are_refused_before_xla(args, message):
    """XLA segfaults on a wrongly shaped buffer; the bridge must refuse it first."""
    executable = compile_spmd(PARTITION_PLUS_X, 4, platform="cpu")
    with pytest.raises(BridgeError, match=message):
        executable.run(args)


def test_a_wrong_shape_on_one_device_only_is_refused():
    args = per_device_ids()
    args[2] = np.zeros((2, 1), np.int32)
    with pytest.raises(BridgeError, match=r"argument 0 on device 2 is int32\[2, 1\]"):
        run_spmd(PARTITION_PLUS_X, [args], 4, platform="cpu")


def test_non_module_input_is_refused():
    with pytest.raises(BridgeError, match="expected an xDSL ModuleOp or MLIR text, got int"):
        run_global(42, [], platform="cpu")


@needs_stablehlo
def test_imported_function_runs_like_jax_jit():
    module = import_function(mlp, X, W)
    (got,) = run_global(module, [X, W], platform="cpu")
    np.testing.assert_allclose(got, np.asarray(jax.jit(mlp)(X, W)), rtol=1e-6)


@needs_stablehlo
def test_module_text_is_what_xla_compiles():
    text = module_text(import_function(mlp, X, W))
    assert "func.func" in text and "stablehlo.dot_general" in text
    (got,) = run_global(text, [X, W], platform="cpu")
    np.testing.assert_allclose(got, np.asarray(jax.jit(mlp)(X, W)), rtol=1e-6)


def test_the_export_does_not_import_jax():
    """xshard-opt runs `convert-shard-to-stablehlo` without paying for jax."""
    code = (
        "import sys, xshard.transforms.export.convert_shard_to_stablehlo; "
        "sys.exit('jax' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
