"""Import passes: bring what JAX emits into the form xshard shards (`import` is a Python
keyword, so load these modules with `importlib.import_module`)."""
