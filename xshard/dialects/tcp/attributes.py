"""TCP's enum attributes, spelled as upstream's TcpEnums.td: `#tcp<signedness Signed>`."""

from __future__ import annotations

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    irdl_attr_definition,
)
from xdsl.utils.str_enum import StrEnum


class Signedness(StrEnum):
    """How `tcp.cast` reads or writes a signless integer."""

    Signless = "Signless"
    Signed = "Signed"
    Unsigned = "Unsigned"


@irdl_attr_definition
class SignednessAttr(EnumAttribute[Signedness], SpacedOpaqueSyntaxAttribute):
    name = "tcp.signedness"


class RoundingMode(StrEnum):
    """How integer division rounds its quotient."""

    Trunc = "Trunc"
    Floor = "Floor"
    Ceil = "Ceil"


@irdl_attr_definition
class RoundingModeAttr(EnumAttribute[RoundingMode], SpacedOpaqueSyntaxAttribute):
    name = "tcp.roundingMode"
