// The 1-D weight-stationary MLP after propagation, on a grid of 2: the report
// lists every tensor value with its sharding and where that annotation came
// from, then the two operands whose users want another layout, with the
// planner's collectives: the input gathered for the first dot_general, the
// partial result reduce-scattered for the return.
// RUN: xshard-opt %s -p 'sharding-propagation,sharding-report' | filecheck %s
shard.grid @grid2(shape = 2)

func.func @mlp(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<32x8xf32>) -> tensor<2x4x8xf32> {
  %s_in = shard.sharding @grid2 split_axes = [[], [], [0]] : !shard.sharding
  %0 = shard.shard %arg0 to %s_in : tensor<2x4x8xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [2] x [0] : (tensor<2x4x8xf32>, tensor<8x32xf32>) -> tensor<2x4x32xf32>
  %2 = stablehlo.constant dense<0.000000e+00> : tensor<2x4x32xf32>
  %3 = stablehlo.maximum %1, %2 : tensor<2x4x32xf32>
  %4 = stablehlo.dot_general %3, %arg2, contracting_dims = [2] x [0] : (tensor<2x4x32xf32>, tensor<32x8xf32>) -> tensor<2x4x8xf32>
  %s_partial = shard.sharding @grid2 split_axes = [[], [], []] partial = sum [0] : !shard.sharding
  %5 = shard.shard %4 to %s_partial : tensor<2x4x8xf32>
  %s_out = shard.sharding @grid2 split_axes = [[], [], [0]] : !shard.sharding
  %6 = shard.shard %5 to %s_out annotate_for_users : tensor<2x4x8xf32>
  func.return %6 : tensor<2x4x8xf32>
}

// The report comes first, every line a comment, values in block order.
// CHECK:      // sharding report for @mlp
// CHECK-NEXT: // value  defined by             at    type                split axes     partial  annotation
// CHECK-NEXT: // %arg0  argument 0             -     tensor<2x4x8xf32>   {{\[\[}}], [], [0]]  -        input 11:3
// CHECK-NEXT: // %arg1  argument 1             -     tensor<8x32xf32>    {{\[\[}}], [0]]      -        propagated
// CHECK-NEXT: // %arg2  argument 2             -     tensor<32x8xf32>    {{\[\[}}0], []]      -        propagated
// CHECK-NEXT: // %[[DOT1:[0-9]+]] stablehlo.dot_general  12:3  tensor<2x4x32xf32>  {{\[\[}}], [], [0]]  -        propagated
// CHECK-NEXT: // %[[CST:[0-9]+]] stablehlo.constant     13:3  tensor<2x4x32xf32>  {{\[\[}}], [], [0]]  -        propagated
// CHECK-NEXT: // %[[MAX:[0-9]+]] stablehlo.maximum      14:3  tensor<2x4x32xf32>  {{\[\[}}], [], [0]]  -        propagated
// CHECK-NEXT: // %[[DOT2:[0-9]+]] stablehlo.dot_general  15:3  tensor<2x4x8xf32>   {{\[\[}}], [], []]   sum [0]  input 17:3
// CHECK-NEXT: //
// CHECK-NEXT: // reshards: operands whose users want another sharding
// CHECK-NEXT: // user                   at    operand  value  has                             wants          collectives                                                      bytes/device
// CHECK-NEXT: // stablehlo.dot_general  12:3  0        %arg0  {{\[\[}}], [], [0]]                   {{\[\[}}], [], []]   all_gather grid_axes = [0] gather_axis = 2                       128
// CHECK-NEXT: // func.return            20:3  0        %[[DOT2]] {{\[\[}}], [], []] partial = sum [0]  {{\[\[}}], [], [0]]  reduce_scatter grid_axes = [0] reduction = sum scatter_axis = 2  128
// Why: the first dot_general's option (its hidden loop split) costs one all_gather
// of the input, half the modeled time of its best alternative (no loop split).
// CHECK-NEXT: //
// CHECK-NEXT: // why: each resharding op's loop axes and the modeled time of its reshards,
// CHECK-NEXT: // next to the cheapest alternative its tensors' layouts suggest
// CHECK-NEXT: // op                     at    loop axes          cost (us)  best alternative  its cost (us)
// CHECK-NEXT: // stablehlo.dot_general  12:3  {{\[\[}}], [], [0], []]  5.00       {{\[\[}}], [], [], []]  10.00

// The names are the printer's: each row's value is defined under that name below.
// CHECK:      builtin.module {
// CHECK:        %[[DOT1]] = stablehlo.dot_general
// CHECK:        %[[CST]] = stablehlo.constant
// CHECK:        %[[MAX]] = stablehlo.maximum
// CHECK:        %[[DOT2]] = stablehlo.dot_general
