"""Analyses that print about the IR and leave it as it is."""
