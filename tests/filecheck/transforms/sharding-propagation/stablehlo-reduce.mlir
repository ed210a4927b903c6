// stablehlo.reduce: one loop per input dim; the reduced ones are reductions of
// the kind the body names (add: sum, maximum: max, minimum: min, multiply:
// product). A split reduced dim leaves the results partial of that kind, and asks
// the same of the init, which the reduction folds in once. A body
// that names no kind (several ops, several inputs) may not have its reduced
// dims split: nothing could settle the partial results.
// RUN: xshard-opt %s --split-input-file -p sharding-propagation | filecheck %s

shard.grid @g(shape = 2x2)

func.func @sum_forward(%in: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %in to %s : tensor<4x8xf32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func @sum_forward(
// CHECK-DAG:   %[[Z:.+]] = shard.shard %z to
// CHECK:       %x = shard.shard %in to %s
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %x to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %[[I:.+]] = shard.shard %[[Z]] to %[[S1]] annotate_for_users : tensor<f32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.reduce(%[[X]] init: %[[I]]) applies stablehlo.add across dimensions = [1]
// CHECK-NEXT:  %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %[[R]] to %[[S2]] : tensor<4xf32>

// -----

shard.grid @g(shape = 2x2)

// The result's split dim maps back to input dim 1; the reduced dim 0 stays whole.
func.func @sum_backward(%in: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<8xf32> {
  %0 = stablehlo.reduce(%in init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  %s = shard.sharding @g split_axes = [[1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<8xf32>
  func.return %r : tensor<8xf32>
}
// CHECK-LABEL: func.func @sum_backward(
// CHECK-DAG:   %[[IN:.+]] = shard.shard %in to
// CHECK-DAG:   %[[Z:.+]] = shard.shard %z to
// CHECK:       %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %[[IN]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %[[I:.+]] = shard.shard %[[Z]] to %[[S1]] annotate_for_users : tensor<f32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.reduce(%[[X]] init: %[[I]])
// CHECK-NEXT:  %s = shard.sharding @g split_axes = {{\[\[}}1, 0]] : !shard.sharding

// -----

shard.grid @g(shape = 2x2)

// Backward from a partial sum: the reduced dim is split on the partial axis.
func.func @sum_backward_partial(%in: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%in init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %s = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4xf32>
  func.return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @sum_backward_partial(
// CHECK-DAG:   %[[IN:.+]] = shard.shard %in to
// CHECK:       %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %[[IN]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.+}} to %[[S1]] annotate_for_users : tensor<f32>
// CHECK-NEXT:  stablehlo.reduce(%[[X]]

// -----

shard.grid @g(shape = 2x2)

// A full reduction to rank 0 over two axes: partial over both.
func.func @sum_to_scalar(%in: tensor<8xf32>, %z: tensor<f32>) -> tensor<f32> {
  %s = shard.sharding @g split_axes = [[0, 1]] : !shard.sharding
  %x = shard.shard %in to %s : tensor<8xf32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
// CHECK-LABEL: func.func @sum_to_scalar(
// CHECK:       %[[R:.+]] = stablehlo.reduce
// CHECK-NEXT:  %[[S:.+]] = shard.sharding @g split_axes = {{\[\[}}]] partial = sum [0, 1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %[[R]] to %[[S]] : tensor<f32>

// -----

shard.grid @g(shape = 2x2)

func.func @max_forward(%in: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %s = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %x = shard.shard %in to %s : tensor<4x8xf32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func @max_forward(
// CHECK:       %[[R:.+]] = stablehlo.reduce
// CHECK-NEXT:  %[[S:.+]] = shard.sharding @g split_axes = {{\[\[}}]] partial = max [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %[[R]] to %[[S]] : tensor<4xf32>

// -----

shard.grid @g(shape = 2x2)

// The body written out in full is read the same as `applies`.
func.func @min_region_forward(%in: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %s = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %x = shard.shard %in to %s : tensor<4x8xf32>
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %1 = stablehlo.minimum %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }
  func.return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func @min_region_forward(
// CHECK:       %[[R:.+]] = stablehlo.reduce
// CHECK-NEXT:  %[[S:.+]] = shard.sharding @g split_axes = {{\[\[}}]] partial = min [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %[[R]] to %[[S]] : tensor<4xf32>

// -----

shard.grid @g(shape = 2x2)

func.func @max_backward_partial(%in: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%in init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %s = shard.sharding @g split_axes = [[1]] partial = max [0] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4xf32>
  func.return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @max_backward_partial(
// CHECK-DAG:   %[[IN:.+]] = shard.shard %in to
// CHECK:       %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}1], [0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[IN]] to %[[S0]] annotate_for_users : tensor<4x8xf32>

// -----

shard.grid @g(shape = 2x2)

func.func @product_forward(%in: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %s = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %x = shard.shard %in to %s : tensor<4x8xf32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.multiply across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func @product_forward(
// CHECK:       %[[R:.+]] = stablehlo.reduce
// CHECK-NEXT:  %[[S:.+]] = shard.sharding @g split_axes = {{\[\[}}]] partial = product [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %[[R]] to %[[S]] : tensor<4xf32>

// -----

shard.grid @g(shape = 2x2)

// This body adds but returns its first argument: no known kind, so the reduced
// dim may not be split. The pinned result wins and the input is asked for
// whole along dim 1 (a reshard before the reduce); it is never partial.
func.func @unnamed_body(%in: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %in to %s : tensor<4x8xf32>
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %a : tensor<f32>
  }
  %t = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %r = shard.shard %0 to %t : tensor<4xf32>
  func.return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @unnamed_body(
// CHECK:       %x = shard.shard %in to %s
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %[[X:.+]] = shard.shard %x to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.+}} to %[[S1]] annotate_for_users : tensor<f32>
// CHECK-NEXT:  stablehlo.reduce(%[[X]]
// CHECK:       %t = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %r = shard.shard %{{.+}} to %t : tensor<4xf32>

// -----

shard.grid @g(shape = 2x2)

// An argmax (two inputs): the kept dim is shared by both inputs and results.
func.func @argmax_backward(%v: tensor<4x8xf32>, %i: tensor<4x8xi32>, %z: tensor<f32>, %c: tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0:2 = stablehlo.reduce(%v init: %z), (%i init: %c) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%j: tensor<i32>, %k: tensor<i32>) {
    %1 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %a, %b : tensor<i1>, tensor<f32>
    %3 = stablehlo.select %1, %j, %k : tensor<i1>, tensor<i32>
    stablehlo.return %2, %3 : tensor<f32>, tensor<i32>
  }
  %s = shard.sharding @g split_axes = [[1]] : !shard.sharding
  %r = shard.shard %0#1 to %s : tensor<4xi32>
  func.return %0#0, %r : tensor<4xf32>, tensor<4xi32>
}
// CHECK-LABEL: func.func @argmax_backward(
// CHECK-DAG:   %[[V:.+]] = shard.shard %v to
// CHECK-DAG:   %[[I:.+]] = shard.shard %i to
// CHECK:       %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  %[[V2:.+]] = shard.shard %[[V]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  %[[I2:.+]] = shard.shard %[[I]] to %[[S1]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT:  %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.+}} to %[[S2]] annotate_for_users : tensor<f32>
// CHECK-NEXT:  %[[S3:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.+}} to %[[S3]] annotate_for_users : tensor<i32>
// CHECK-NEXT:  %[[R:[0-9]+]]:2 = stablehlo.reduce(%[[V2]] init: %{{.+}}), (%[[I2]] init:
// CHECK:       %[[S4:.+]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %[[R]]#0 to %[[S4]] : tensor<4xf32>
// CHECK-NEXT:  %s = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  %r = shard.shard %[[R]]#1 to %s : tensor<4xi32>
