"""Test-session setup that must happen before anything imports jax.

XLA reads `XLA_FLAGS` once, when jax first starts a CPU client, so the 8
simulated devices the collective tests run on are asked for here. Tests run on
CPU unless `XSHARD_TEST_GPU` is set, which keeps GPU machines running the same
CPU tests and lets the GPU-only tests find their devices.
"""

import os

_flags = os.environ.get("XLA_FLAGS", "")
if "--xla_force_host_platform_device_count" not in _flags:
    os.environ["XLA_FLAGS"] = f"{_flags} --xla_force_host_platform_device_count=8".strip()
if not os.environ.get("XSHARD_TEST_GPU"):
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
