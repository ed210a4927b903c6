"""Frontend passes: conversions between the dialects programs arrive in (TCP, StableHLO)."""
