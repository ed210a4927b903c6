"""Choosing the devices an executable runs on, with errors instead of XLA's crashes.

XLA segfaults when the devices of an executable and of its inputs disagree in
order (jax-xla.md §4.3), so every device list is checked here before it reaches
XLA.
"""

from __future__ import annotations

from collections.abc import Sequence

import jax

from xshard.jax.errors import BridgeError


def pick_devices(
    num_devices: int, platform: str | None = None, devices: Sequence[jax.Device] | None = None
) -> tuple[jax.Device, ...]:
    """The `num_devices` devices to run on: `devices` if given, else the first of `platform`."""
    if num_devices < 1:
        raise BridgeError(f"num_devices must be at least 1, got {num_devices}")
    if devices is not None:
        chosen = tuple(devices)
        if len(chosen) != num_devices:
            raise BridgeError(
                f"asked for {num_devices} devices but the device list has {len(chosen)}"
            )
        if len({(d.platform, d.id) for d in chosen}) != len(chosen):
            raise BridgeError(f"the device list names a device twice: {list(chosen)}")
        if len({d.platform for d in chosen}) != 1:
            raise BridgeError(f"the devices must share one platform: {list(chosen)}")
        return chosen
    try:
        available = jax.devices(platform)
    except RuntimeError as err:
        raise BridgeError(f"no {platform} devices: {err}") from err
    if len(available) < num_devices:
        where = available[0].platform
        hint = (
            f"; set XLA_FLAGS=--xla_force_host_platform_device_count={num_devices} "
            "before jax is imported"
            if where == "cpu"
            else ""
        )
        raise BridgeError(
            f"the module needs {num_devices} devices but only {len(available)} "
            f"{where} devices are available{hint}"
        )
    return tuple(available[:num_devices])


def check_device_order(expected: Sequence[jax.Device], actual: Sequence[jax.Device]) -> None:
    """Refuse to run when XLA placed the partitions on other devices than asked for."""
    if [d.id for d in expected] != [d.id for d in actual]:
        raise BridgeError(
            "the executable runs on devices "
            f"{[d.id for d in actual]} but was compiled for {[d.id for d in expected]} "
            "(partition k must run on device k of the list); refusing to run, "
            "XLA would crash"
        )
