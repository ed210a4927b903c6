"""Compile StableHLO with XLA and run it: globally on one device, or per device on N.

The recipe is the checked one of jax-xla.md §4: partition mode (1 replica, N
partitions), always an explicit device assignment, and inputs placed on the
executable's own device list. Everything XLA would crash on (too few devices,
a device order mismatch, inputs of the wrong shape or type) is refused here
with a `BridgeError` first; what XLA rejects comes back as a `BridgeError`
carrying XLA's message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import jax
import jaxlib.xla_client as xc
import numpy as np
from jax.extend.backend import get_backend, get_compile_options
from jax.sharding import Mesh, NamedSharding, PartitionSpec
from xdsl.dialects.builtin import ModuleOp

from xshard.interfaces.models.stablehlo_custom_call import HOST_CALLBACK_PREFIX
from xshard.jax.devices import check_device_order, pick_devices
from xshard.jax.errors import BridgeError
from xshard.jax.importer import module_text

_DECLARED_PARTITIONS = re.compile(r"mhlo\.num_partitions\s*=\s*(\d+)")
_HOST_CALLBACK = re.compile(
    r'(?:custom_call\s*@|call_target_name\s*=\s*")(' + HOST_CALLBACK_PREFIX + r"\w*)"
)
"""A host callback's call, pretty or generic."""


@dataclass(frozen=True)
class Parameter:
    """What XLA expects of one argument on each device."""

    shape: tuple[int, ...]
    dtype: np.dtype

    def describe(self) -> str:
        return f"{self.dtype}{list(self.shape)}"


class SpmdExecutable:
    """A per-device (SPMD) program compiled for a fixed, ordered list of devices."""

    def __init__(self, loaded: xc.LoadedExecutable, devices: tuple[jax.Device, ...]):
        check_device_order(devices, loaded.local_devices())
        self.loaded = loaded
        self.devices = devices
        self.parameters = _parameters(loaded)

    @property
    def num_devices(self) -> int:
        return len(self.devices)

    def hlo_text(self) -> str:
        """XLA's optimized per-device HLO (what the collective counters read)."""
        return self.loaded.hlo_modules()[0].to_string()

    def run(self, per_device_args: Sequence[Sequence[np.ndarray]]) -> list[list[np.ndarray]]:
        """`per_device_args[i][k]` is argument i on device k; returns `outs[j][k]`."""
        arrays = self._check_args(per_device_args)
        mesh = Mesh(np.array(self.devices), ("d",))
        global_args = [self._global_array(mesh, per_device) for per_device in arrays]
        try:
            results = self.loaded.execute_sharded(global_args)
            outs = results.disassemble_into_single_device_arrays()
            jax.block_until_ready(outs)
        except jax.errors.JaxRuntimeError as err:
            raise BridgeError(f"XLA failed to run the module: {err}") from err
        return [[np.asarray(o) for o in per_out] for per_out in outs]

    def _check_args(
        self, per_device_args: Sequence[Sequence[np.ndarray]]
    ) -> list[list[np.ndarray]]:
        """Refuse inputs XLA would crash on: wrong count, shape or element type."""
        if len(per_device_args) != len(self.parameters):
            raise BridgeError(
                f"the module takes {len(self.parameters)} arguments, got {len(per_device_args)}"
            )
        checked = []
        for i, (param, per_device) in enumerate(zip(self.parameters, per_device_args, strict=True)):
            if len(per_device) != self.num_devices:
                raise BridgeError(
                    f"argument {i} has {len(per_device)} per-device values, "
                    f"expected one for each of the {self.num_devices} devices"
                )
            values = [np.asarray(v) for v in per_device]
            for k, v in enumerate(values):
                if v.shape != param.shape or v.dtype != param.dtype:
                    raise BridgeError(
                        f"argument {i} on device {k} is {v.dtype}{list(v.shape)} "
                        f"but the module expects {param.describe()}"
                    )
            checked.append(values)
        return checked

    def _global_array(self, mesh: Mesh, per_device: list[np.ndarray]) -> jax.Array:
        """A container whose shard k is device k's buffer (its global view is never read)."""
        local = per_device[0]
        if local.ndim == 0:
            sharding, shape = NamedSharding(mesh, PartitionSpec()), ()
        else:
            sharding = NamedSharding(mesh, PartitionSpec("d"))
            shape = (self.num_devices * local.shape[0], *local.shape[1:])
        shards = [jax.device_put(v, d) for v, d in zip(per_device, self.devices, strict=True)]
        return jax.make_array_from_single_device_arrays(shape, sharding, shards)


def _parameters(loaded: xc.LoadedExecutable) -> list[Parameter]:
    program = xc.XlaComputation(loaded.hlo_modules()[0].as_serialized_hlo_module_proto())
    return [
        Parameter(tuple(p.dimensions()), np.dtype(p.numpy_dtype()))
        for p in program.program_shape().parameter_shapes()
    ]


def _as_text(module_or_text: ModuleOp | str) -> str:
    if isinstance(module_or_text, ModuleOp):
        return module_text(module_or_text)
    if isinstance(module_or_text, str):
        return module_or_text
    kind = type(module_or_text).__name__
    raise BridgeError(f"expected an xDSL ModuleOp or MLIR text, got {kind}")


def _compile(text: str, devices: tuple[jax.Device, ...]) -> SpmdExecutable:
    if found := _HOST_CALLBACK.search(text):
        raise BridgeError(
            f"the module calls @{found.group(1)}, a host callback: its Python function "
            "lives in the process that lowered the program, which only xshard.jit calls"
        )
    options = get_compile_options(
        num_replicas=1,
        num_partitions=len(devices),
        device_assignment=np.array([[d.id for d in devices]]),
    )
    backend = get_backend(devices[0].platform)
    try:
        loaded = backend.compile_and_load(text, xc.DeviceList(devices), options)
    except jax.errors.JaxRuntimeError as err:
        raise BridgeError(f"XLA rejected the module: {err}") from err
    return SpmdExecutable(loaded, devices)


def compile_spmd(
    module_or_text: ModuleOp | str,
    num_devices: int,
    *,
    platform: str | None = None,
    devices: Sequence[jax.Device] | None = None,
) -> SpmdExecutable:
    """Compile a per-device module for `num_devices` partitions.

    Partition k runs on `devices[k]` (default: the first devices of `platform`,
    or of JAX's default backend); `partition_id` and the ids in `replica_groups`
    are these positions, not `device.id`.
    """
    text = _as_text(module_or_text)
    declared = _DECLARED_PARTITIONS.search(text)
    if declared and int(declared.group(1)) != num_devices:
        raise BridgeError(
            f"the module declares mhlo.num_partitions = {declared.group(1)} "
            f"but is compiled for {num_devices} devices"
        )
    return _compile(text, pick_devices(num_devices, platform, devices))


def run_spmd(
    module_or_text: ModuleOp | str,
    per_device_args: Sequence[Sequence[np.ndarray]],
    num_devices: int,
    *,
    platform: str | None = None,
    devices: Sequence[jax.Device] | None = None,
) -> list[list[np.ndarray]]:
    """Compile and run a per-device module: `outs[j][k]` is result j on device k."""
    executable = compile_spmd(module_or_text, num_devices, platform=platform, devices=devices)
    return executable.run(per_device_args)


def run_global(
    module_or_text: ModuleOp | str, args: Sequence[np.ndarray], *, platform: str | None = None
) -> list[np.ndarray]:
    """Compile and run an unpartitioned module on one device (the reference run)."""
    executable = _compile(_as_text(module_or_text), pick_devices(1, platform))
    return [out[0] for out in executable.run([[a] for a in args])]
