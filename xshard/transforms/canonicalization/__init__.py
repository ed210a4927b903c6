"""Canonicalization patterns of xshard's dialects, one module per dialect.

Ops hook them in through a `HasCanonicalizationPatternsTrait` that imports the
module lazily, so the dialect modules stay importable without the patterns.
"""
