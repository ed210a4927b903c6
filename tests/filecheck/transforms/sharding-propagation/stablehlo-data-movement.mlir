// Data movement: broadcast_in_dim, transpose, reshape, slice, concatenate, and
// the sources constant and iota. Each maps result dims to operand dims; a dim
// no loop indexes (a size-1 dim that broadcast_in_dim expands, the minor dims
// of a reshape group, a sliced or concatenated dim) is never split.
// RUN: xshard-opt %s --split-input-file -p sharding-propagation | filecheck %s

shard.grid @g(shape = 2x2)

// Operand dims 0 and 1 go to result dims 0 and 2; dim 1 grows from size 1.
func.func @broadcast_in_dim_forward(%a: tensor<4x1xf32>) -> tensor<4x6x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x1xf32>
  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 2] : (tensor<4x1xf32>) -> tensor<4x6x8xf32>
  func.return %0 : tensor<4x6x8xf32>
}
// CHECK-LABEL: func.func @broadcast_in_dim_forward(
// CHECK:       %x = shard.shard %a to %s
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %x to %[[S0]] annotate_for_users : tensor<4x1xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.broadcast_in_dim %[[X]]
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[S1]] : tensor<4x6x8xf32>

// -----

shard.grid @g(shape = 2x2)

// Result dim 2 is split, but its operand dim has size 1: the operand keeps only dim 0.
func.func @broadcast_in_dim_backward(%a: tensor<4x1xf32>) -> tensor<4x6x8xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 2] : (tensor<4x1xf32>) -> tensor<4x6x8xf32>
  %s = shard.sharding @g split_axes = [[0], [], [1]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x6x8xf32>
  func.return %r : tensor<4x6x8xf32>
}
// CHECK-LABEL: func.func @broadcast_in_dim_backward(
// CHECK-DAG:   %[[A:.+]] = shard.shard %a to
// CHECK:       %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %[[A]] to %[[S0]] annotate_for_users : tensor<4x1xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.broadcast_in_dim %[[X]]
// CHECK-NEXT:  %s = shard.sharding @g split_axes = {{\[\[}}0], [], [1]] : !shard.sharding

// -----

shard.grid @g(shape = 2x2)

// Rank-0 to rank 2: every result dim is new, the operand is replicated.
func.func @broadcast_in_dim_scalar(%a: tensor<f32>) -> tensor<4x8xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @broadcast_in_dim_scalar(
// CHECK-DAG:   %[[A:.+]] = shard.shard %a to
// CHECK:       %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %[[A]] to %[[S0]] annotate_for_users : tensor<f32>
// CHECK-NEXT:  stablehlo.broadcast_in_dim %[[X]]

// -----

shard.grid @g(shape = 2x2)

// Result dim i is operand dim dims[i].
func.func @transpose_forward(%a: tensor<2x4x8xf32>) -> tensor<8x2x4xf32> {
  %s = shard.sharding @g split_axes = [[], [0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<2x4x8xf32>
  %0 = stablehlo.transpose %x, dims = [2, 0, 1] : (tensor<2x4x8xf32>) -> tensor<8x2x4xf32>
  func.return %0 : tensor<8x2x4xf32>
}
// CHECK-LABEL: func.func @transpose_forward(
// CHECK:       %x = shard.shard %a to %s
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [0], [1]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %x to %[[S0]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.transpose %[[X]]
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}1], [], [0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[S1]] : tensor<8x2x4xf32>

// -----

shard.grid @g(shape = 2x2)

func.func @transpose_backward(%a: tensor<2x4x8xf32>) -> tensor<8x2x4xf32> {
  %0 = stablehlo.transpose %a, dims = [2, 0, 1] : (tensor<2x4x8xf32>) -> tensor<8x2x4xf32>
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<8x2x4xf32>
  func.return %r : tensor<8x2x4xf32>
}
// CHECK-LABEL: func.func @transpose_backward(
// CHECK-DAG:   %[[A:.+]] = shard.shard %a to
// CHECK:       %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}1], [], [0]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %[[A]] to %[[S0]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  stablehlo.transpose %[[X]]

// -----

shard.grid @g(shape = 2x2)

// 2x4x8 -> 8x8 groups operand dims [0, 1] into result dim 0 (split on the
// group's major dim 0) and maps dim 2 to dim 1.
func.func @reshape_merge_forward(%a: tensor<2x4x8xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<2x4x8xf32>
  %0 = stablehlo.reshape %x : (tensor<2x4x8xf32>) -> tensor<8x8xf32>
  func.return %0 : tensor<8x8xf32>
}
// CHECK-LABEL: func.func @reshape_merge_forward(
// CHECK:       %x = shard.shard %a to %s
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [], [1]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %x to %[[S0]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.reshape %[[X]]
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[S1]] : tensor<8x8xf32>

// -----

shard.grid @g(shape = 2x2)

// The other way: result dims [0, 1] come from operand dim 0.
func.func @reshape_split_backward(%a: tensor<8x8xf32>) -> tensor<2x4x8xf32> {
  %0 = stablehlo.reshape %a : (tensor<8x8xf32>) -> tensor<2x4x8xf32>
  %s = shard.sharding @g split_axes = [[1], [], [0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<2x4x8xf32>
  func.return %r : tensor<2x4x8xf32>
}
// CHECK-LABEL: func.func @reshape_split_backward(
// CHECK-DAG:   %[[A:.+]] = shard.shard %a to
// CHECK:       %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}1], [0]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %[[A]] to %[[S0]] annotate_for_users : tensor<8x8xf32>
// CHECK-NEXT:  stablehlo.reshape %[[X]]

// -----

shard.grid @g(shape = 2x2)

// Size-1 dims: 1x8 -> 8x1 keeps the split on the size-8 dim.
func.func @reshape_unit_dims(%a: tensor<1x8xf32>) -> tensor<8x1xf32> {
  %s = shard.sharding @g split_axes = [[], [0, 1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<1x8xf32>
  %0 = stablehlo.reshape %x : (tensor<1x8xf32>) -> tensor<8x1xf32>
  func.return %0 : tensor<8x1xf32>
}
// CHECK-LABEL: func.func @reshape_unit_dims(
// CHECK:       %[[R:.+]] = stablehlo.reshape
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0, 1]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[S1]] : tensor<8x1xf32>

// -----

shard.grid @g(shape = 2x2)

// Operand dim 1 is the minor part of a group: it may not be split. The pinned
// result wins and the operand is asked whole along dim 1.
func.func @reshape_minor_dim(%a: tensor<2x4x8xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @g split_axes = [[], [0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<2x4x8xf32>
  %0 = stablehlo.reshape %x : (tensor<2x4x8xf32>) -> tensor<8x8xf32>
  %t = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %r = shard.shard %0 to %t : tensor<8x8xf32>
  func.return %r : tensor<8x8xf32>
}
// CHECK-LABEL: func.func @reshape_minor_dim(
// CHECK:       %x = shard.shard %a to %s
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [], [1]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %x to %[[S0]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  stablehlo.reshape %[[X]]

// -----

shard.grid @g(shape = 2x2)

// Dim 0 is kept whole by the slice, so it may be split.
func.func @slice_forward(%a: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %s = shard.sharding @g split_axes = [[1, 0]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.slice %x [0:4, 2:6] : (tensor<4x8xf32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}
// CHECK-LABEL: func.func @slice_forward(
// CHECK:       %x = shard.shard %a to %s
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}1, 0]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %x to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.slice %[[X]]
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}1, 0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[S1]] : tensor<4x4xf32>

// -----

shard.grid @g(shape = 2x2)

// Dim 1 is sliced with stride 2: the operand is asked whole along it.
func.func @slice_sliced_dim(%a: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.slice %x [0:4, 0:8:2] : (tensor<4x8xf32>) -> tensor<4x4xf32>
  %t = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %r = shard.shard %0 to %t : tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}
// CHECK-LABEL: func.func @slice_sliced_dim(
// CHECK:       %x = shard.shard %a to %s
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %x to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  stablehlo.slice %[[X]]

// -----

shard.grid @g(shape = 2x2)

// Concatenation along dim 1: every input shares the split of dim 0.
func.func @concatenate_forward(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>) -> tensor<4x10xf32> {
  %s = shard.sharding @g split_axes = [[1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.concatenate %x, %b, dim = 1 : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
  func.return %0 : tensor<4x10xf32>
}
// CHECK-LABEL: func.func @concatenate_forward(
// CHECK-DAG:   %[[B:.+]] = shard.shard %b to
// CHECK:       %x = shard.shard %a to %s
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %x to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  %[[Y:.+]] = shard.shard %[[B]] to %[[S1]] annotate_for_users : tensor<4x2xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.concatenate %[[X]], %[[Y]]
// CHECK-NEXT:  %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[S2]] : tensor<4x10xf32>

// -----

shard.grid @g(shape = 2x2)

// The concatenated dim may not be split: the inputs are asked whole along it.
func.func @concatenate_backward(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>) -> tensor<4x10xf32> {
  %0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x10xf32>
  func.return %r : tensor<4x10xf32>
}
// CHECK-LABEL: func.func @concatenate_backward(
// CHECK-DAG:   %[[A:.+]] = shard.shard %a to
// CHECK-DAG:   %[[B:.+]] = shard.shard %b to
// CHECK:       %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %[[A]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %[[Y:.+]] = shard.shard %[[B]] to %[[S1]] annotate_for_users : tensor<4x2xf32>
// CHECK-NEXT:  stablehlo.concatenate %[[X]], %[[Y]]

// -----

shard.grid @g(shape = 2x2)

func.func @concatenate_concatenated_dim(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>) -> tensor<4x10xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.concatenate %x, %b, dim = 1 : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
  %t = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %r = shard.shard %0 to %t : tensor<4x10xf32>
  func.return %r : tensor<4x10xf32>
}
// CHECK-LABEL: func.func @concatenate_concatenated_dim(
// CHECK:       %x = shard.shard %a to %s
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %x to %[[S0]] annotate_for_users : tensor<4x8xf32>

// -----

shard.grid @g(shape = 2x2)

// A constant takes the layout its user asks for.
func.func @constant_backward() -> tensor<4x8xf32> {
  %0 = stablehlo.constant dense<1.0> : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %r = shard.shard %0 to %s annotate_for_users : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @constant_backward(
// CHECK-NEXT:  %[[C:.+]] = stablehlo.constant
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:  %[[R:.+]] = shard.shard %[[C]] to %[[S0]] : tensor<4x8xf32>
// CHECK-NEXT:  %s = shard.sharding
// CHECK-NEXT:  %r = shard.shard %[[R]] to %s annotate_for_users

// -----

shard.grid @g(shape = 2x2)

// So does an iota, even split along its iota dimension.
func.func @iota_backward() -> tensor<4x8xi32> {
  %0 = stablehlo.iota dim = 1 : tensor<4x8xi32>
  %s = shard.sharding @g split_axes = [[1], [0]] : !shard.sharding
  %r = shard.shard %0 to %s annotate_for_users : tensor<4x8xi32>
  func.return %r : tensor<4x8xi32>
}
// CHECK-LABEL: func.func @iota_backward(
// CHECK-NEXT:  %[[C:.+]] = stablehlo.iota dim = 1
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}1], [0]] : !shard.sharding
// CHECK-NEXT:  %[[R:.+]] = shard.shard %[[C]] to %[[S0]] : tensor<4x8xi32>
