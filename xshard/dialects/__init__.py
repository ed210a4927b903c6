"""xshard's dialects, registered lazily by name.

`shard` and `stablehlo` are registered only inside xshard's own tools and
contexts, never through xDSL's `xdsl.universe` entry point: xDSL already ships a
`shard` dialect, and a second one under the same name breaks every xDSL tool.
"""

from collections.abc import Callable

from xdsl.ir import Dialect


def get_xshard_dialects() -> dict[str, Callable[[], Dialect]]:
    """Map each dialect name to a factory that imports it on first use."""

    def get_shard() -> Dialect:
        from xshard.dialects.shard import Shard

        return Shard

    def get_stablehlo() -> Dialect:
        from xshard.dialects.stablehlo import StableHLO

        return StableHLO

    def get_chlo() -> Dialect:
        from xshard.dialects.chlo import CHLO

        return CHLO

    def get_sdy() -> Dialect:
        from xshard.dialects.sdy import SDY

        return SDY

    def get_tcp() -> Dialect:
        from xshard.dialects.tcp import TCP

        return TCP

    def get_affine() -> Dialect:
        from xshard.dialects.affine import AffineWithDelinearize

        return AffineWithDelinearize

    def get_tosa() -> Dialect:
        from xshard.dialects.tosa import TOSA

        return TOSA

    return {
        "shard": get_shard,
        "stablehlo": get_stablehlo,
        "chlo": get_chlo,
        "sdy": get_sdy,
        "tcp": get_tcp,
        "tosa": get_tosa,
        "affine": get_affine,
    }
