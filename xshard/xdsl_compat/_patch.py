"""Replacing one method of an xDSL class, once, whoever asks and however often."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

_APPLIED = "__xshard_fixes__"
"""The names of the fixes a replacement carries, its own and those it wraps."""


def patch(
    owner: Any, name: str, make: Callable[[Any], Any], wrap: Callable[[Any], Any] = lambda f: f
) -> None:
    """Replace `owner.name` by `wrap(make(original))`, unless `make` already did.

    Several fixes may wrap one method (dense literal elements have two); each is
    marked by its `make`'s name, so re-applying one leaves the others in place."""
    original = owner.__dict__[name]
    inner = getattr(original, "__func__", original)  # a classmethod's function
    applied = getattr(inner, _APPLIED, frozenset())
    fix = f"{make.__module__}.{make.__qualname__}"
    if fix in applied:
        return
    replacement = functools.update_wrapper(make(inner), inner)
    setattr(replacement, _APPLIED, applied | {fix})
    setattr(owner, name, wrap(replacement))
