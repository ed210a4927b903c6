"""The column-parallel linear layer's forward, `y = x @ w`, as a global annotated
program: `x` `[S, H]` split along the sequence, `w` `[H, 4H]` by columns, `y` by
columns, so that partitioning all-gathers `x` before the matmul (the layer
`shard-decompose-all-gather` overlaps). The matmul's result is annotated too, as
the layer's output: otherwise propagation may gather the weight instead where its
shard is no larger than the activation's, and reshard the output. On a 2-D grid
`x` gets a batch dim split over axis 0 and the gather runs over axis 1 only.
"""

from __future__ import annotations


def column_parallel_linear(seq: int, hidden: int, grid: tuple[int, ...] = (8,)) -> str:
    """The program's text; `grid` is `(n,)` or `(batch_axis, n)`."""
    out = 4 * hidden
    if len(grid) == 1:
        x_type, y_type = f"tensor<{seq}x{hidden}xf32>", f"tensor<{seq}x{out}xf32>"
        seq_split, col_split, y_split, contract = "[[0]]", "[[], [0]]", "[[], [0]]", 1
    else:
        batch = grid[0]
        x_type = f"tensor<{batch}x{seq}x{hidden}xf32>"
        y_type = f"tensor<{batch}x{seq}x{out}xf32>"
        seq_split, col_split, y_split, contract = "[[0], [1]]", "[[], [1]]", "[[0], [], [1]]", 2
    w_type = f"tensor<{hidden}x{out}xf32>"
    shape = "x".join(str(n) for n in grid)
    dot_type = f"({x_type}, {w_type}) -> {y_type}"
    return f"""shard.grid @m(shape = {shape})

func.func @main(%x: {x_type}, %w: {w_type}) -> {y_type} {{
  %seq = shard.sharding @m split_axes = {seq_split} : !shard.sharding
  %col = shard.sharding @m split_axes = {col_split} : !shard.sharding
  %out = shard.sharding @m split_axes = {y_split} : !shard.sharding
  %x_s = shard.shard %x to %seq : {x_type}
  %w_s = shard.shard %w to %col : {w_type}
  %y = stablehlo.dot_general %x_s, %w_s, contracting_dims = [{contract}] x [0] : {dot_type}
  %y_r = shard.shard %y to %out : {y_type}
  %y_s = shard.shard %y_r to %out annotate_for_users : {y_type}
  func.return %y_s : {y_type}
}}
"""
