"""Sharding models for payload ops, one module per dialect (MLIR's external models)."""
