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


import shutil  # noqa: E402  (after the environment set-up above, on purpose)
import subprocess  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

# Hypothesis: reproducible draws by default (the same 100 examples on every run, so CI
# is stable); `--hypothesis-profile=long` draws 1000 fresh ones to search for bugs.
settings.register_profile("default", derandomize=True, database=None)
settings.register_profile("long", max_examples=1000)
settings.load_profile("default")

MLIR_OPT = shutil.which(os.environ.get("XSHARD_MLIR_OPT", "mlir-opt-22"))
"""The reference `mlir-opt` 22.1.8 (Debian's mlir-22-tools), or None."""


@pytest.fixture(scope="session")
def mlir_opt() -> str:
    """The reference binary; the differential tests skip without it."""
    if MLIR_OPT is None:
        pytest.skip("mlir-opt-22 not found: install Debian's mlir-22-tools (.ci/run does)")
    return MLIR_OPT


@pytest.fixture(scope="session")
def mlir_opt_generic(mlir_opt: str) -> Callable[[Path, str], str]:
    """Runs a file through a nested `--pass-pipeline`; the output in generic form."""

    def run(path: Path, pipeline: str) -> str:
        done = subprocess.run(
            [mlir_opt, str(path), f"--pass-pipeline={pipeline}", "--mlir-print-op-generic"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run
