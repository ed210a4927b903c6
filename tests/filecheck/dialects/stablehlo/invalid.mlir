// RUN: xshard-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier failures of the StableHLO subset, one per chunk, each with the message it must give.
func.func @f(%a: tensor<4xf32>, %b: tensor<8xf32>) {
  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<8xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.add' op requires the same type for all operands and results, got (tensor<4xf32>, tensor<8xf32>) -> tensor<4xf32>

// -----

func.func @f(%a: tensor<4xi32>) {
  %0 = stablehlo.exponential %a : tensor<4xi32>
  func.return
}
// CHECK: 'stablehlo.exponential' op operand element type must be float or complex, got i32

// -----

func.func @f(%a: tensor<4xf32>) {
  %0 = stablehlo.not %a : tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.not' op operand element type must be bool or integer, got f32

// -----

func.func @f(%a: tensor<4xf32>) {
  %0 = stablehlo.popcnt %a : tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.popcnt' op operand element type must be integer, got f32

// -----

func.func @f(%a: tensor<4xf32>) {
  %0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<8xi32>
  func.return
}
// CHECK: 'stablehlo.convert' op requires the same shape for operand and result, got tensor<4xf32> -> tensor<8xi32>

// -----

func.func @f(%a: tensor<4xf32>) {
  %0 = stablehlo.compare GT, %a, %a, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.compare' op result element type must be i1, got f32

// -----

func.func @f(%p: tensor<2xi1>, %a: tensor<4xf32>) {
  %0 = stablehlo.select %p, %a, %a : tensor<2xi1>, tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.select' op pred must be rank 0 or have the shape of on_true, got tensor<2xi1> and tensor<4xf32>

// -----

func.func @f(%m: tensor<2xf32>, %a: tensor<4xf32>) {
  %0 = stablehlo.clamp %m, %a, %m : (tensor<2xf32>, tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.clamp' op min must be rank 0 or have the operand's shape, got tensor<2xf32> for operand tensor<4xf32>

// -----

func.func @f(%a: tensor<4xf32>) {
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<4xf32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: 'stablehlo.broadcast_in_dim' op broadcast_dimensions size (2) does not match operand rank (1)

// -----

func.func @f(%a: tensor<4xf32>) {
  %0 = stablehlo.broadcast_in_dim %a, dims = [2] : (tensor<4xf32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: 'stablehlo.broadcast_in_dim' op broadcast_dimensions contains 2, out of range [0, 2)

// -----

func.func @f(%a: tensor<1x4xf32>) {
  %0 = stablehlo.broadcast_in_dim %a, dims = [1, 1] : (tensor<1x4xf32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: 'stablehlo.broadcast_in_dim' op broadcast_dimensions must be unique, got [1, 1]

// -----

func.func @f(%a: tensor<3xf32>) {
  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: 'stablehlo.broadcast_in_dim' op size of operand dimension 0 (3) is not 1 and not equal to the size of result dimension 1 (4)

// -----

func.func @f(%a: tensor<4x8xf32>) {
  %0 = stablehlo.reshape %a : (tensor<4x8xf32>) -> tensor<3x8xf32>
  func.return
}
// CHECK: 'stablehlo.reshape' op number of elements differs: tensor<4x8xf32> has 32, tensor<3x8xf32> has 24

// -----

func.func @f(%a: tensor<4x8xf32>) {
  %0 = stablehlo.transpose %a, dims = [0, 0] : (tensor<4x8xf32>) -> tensor<4x4xf32>
  func.return
}
// CHECK: 'stablehlo.transpose' op permutation [0, 0] is not a permutation of [0, 2)

// -----

func.func @f(%a: tensor<4x8xf32>) {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.transpose' op result shape must be [8, 4], got [4, 8]

// -----

func.func @f(%a: tensor<4x8xf32>) {
  %0 = stablehlo.slice %a [1:5, 0:8] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.slice' op slice 1:5 of dimension 0 is out of bounds [0, 4]

// -----

func.func @f(%a: tensor<4x8xf32>) {
  %0 = stablehlo.slice %a [0:4, 0:8:0] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.slice' op stride of dimension 1 must be positive, got 0

// -----

func.func @f(%a: tensor<4x8xf32>) {
  %0 = stablehlo.slice %a [0:4, 0:8:3] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  func.return
}
// CHECK: 'stablehlo.slice' op result shape must be [4, 3], got [4, 2]

// -----

func.func @f(%a: tensor<4x8xf32>, %i: tensor<i32>) {
  %0 = stablehlo.dynamic_slice %a, %i, %i, sizes = [5, 4] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<5x4xf32>
  func.return
}
// CHECK: 'stablehlo.dynamic_slice' op slice size 5 of dimension 0 is out of bounds [0, 4]

// -----

func.func @f(%a: tensor<4x8xf32>, %i: tensor<i32>) {
  %0 = stablehlo.dynamic_slice %a, %i, sizes = [2, 4] : (tensor<4x8xf32>, tensor<i32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: 'stablehlo.dynamic_slice' op expects 2 start indices (the operand rank), got 1

// -----

func.func @f(%a: tensor<4x8xf32>, %u: tensor<2x9xf32>, %i: tensor<i32>) {
  %0 = stablehlo.dynamic_update_slice %a, %u, %i, %i : (tensor<4x8xf32>, tensor<2x9xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.dynamic_update_slice' op update dimension 1 (9) is larger than the operand's (8)

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<3x8xf32>) {
  %0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<4x8xf32>, tensor<3x8xf32>) -> tensor<4x16xf32>
  func.return
}
// CHECK: 'stablehlo.concatenate' op input 1 has size 3 in dimension 0, expected 4 (only dimension 1 may differ)

// -----

func.func @f(%a: tensor<4x8xf32>) {
  %0 = stablehlo.concatenate %a, %a, dim = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.concatenate' op result shape must be [4, 16], got [4, 8]

// -----

func.func @f(%a: tensor<4x8xf32>, %z: tensor<f32>) {
  %0 = stablehlo.pad %a, %z, low = [1, 0], high = [2, 1], interior = [1, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<7x9xf32>
  func.return
}
// CHECK: 'stablehlo.pad' op result shape must be [10, 9], got [7, 9]

// -----

func.func @f(%a: tensor<4x8xf32>, %z: tensor<i32>) {
  %0 = stablehlo.pad %a, %z, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<4x8xf32>, tensor<i32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.pad' op padding_value must be a rank-0 tensor of the operand's element type, got tensor<i32>

// -----

func.func @f(%a: tensor<2x8xf32>, %b: tensor<4x16xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x8xf32>, tensor<4x16xf32>) -> tensor<2x16xf32>
  func.return
}
// CHECK: 'stablehlo.dot_general' op contracting dimension sizes differ: lhs dimension 1 has 8, rhs dimension 0 has 4

// -----

func.func @f(%a: tensor<2x2x8xf32>, %b: tensor<2x2x4xf32>) {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [0] x [1] : (tensor<2x2x8xf32>, tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
  func.return
}
// CHECK: 'stablehlo.dot_general' op lhs batching and contracting dimensions must be disjoint, got [0] and [0]

// -----

func.func @f(%a: tensor<2x8xf32>, %b: tensor<8x16xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<16x2xf32>
  func.return
}
// CHECK: 'stablehlo.dot_general' op result shape must be [2, 16], got [16, 2]

// -----

func.func @f(%a: tensor<2x8xf32>, %b: tensor<8x16xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT] : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
  func.return
}
// CHECK: 'stablehlo.dot_general' op precision_config must have 0 or 2 entries, got 1

// -----

func.func @f(%a: tensor<4x8xf32>, %z: tensor<f32>) {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [2] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.reduce' op dimensions contains 2, out of range [0, 2)

// -----

func.func @f(%a: tensor<4x8xf32>, %z: tensor<f32>) {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  func.return
}
// CHECK: 'stablehlo.reduce' op result 0 must be tensor<4xf32>, got tensor<8xf32>

// -----

func.func @f(%a: tensor<4x8xf32>, %z: tensor<4xf32>) {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.reduce' op init value 0 must be a rank-0 tensor, got tensor<4xf32>

// -----

func.func @f(%a: tensor<4x8xf32>, %z: tensor<f32>) {
  %0 = stablehlo.reduce(%a init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%x: tensor<f32>, %y: tensor<f32>) {
    %c = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }
  func.return
}
// CHECK: 'stablehlo.reduce' op reducer must return (tensor<f32>), got (tensor<i1>)

// -----

func.func @f() {
  %0 = stablehlo.iota dim = 2 : tensor<4x8xi32>
  func.return
}
// CHECK: 'stablehlo.iota' op iota_dimension 2 is out of range [0, 2)

// -----

func.func @f() {
  %0 = "stablehlo.constant"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<2xf32>
  func.return
}
// CHECK: 'stablehlo.constant' op value type tensor<f32> does not match result type tensor<2xf32>

// -----

func.func @f() {
  %0 = stablehlo.partition_id : tensor<i32>
  func.return
}
// CHECK: 'stablehlo.partition_id' op result must be tensor<ui32>, got tensor<i32>

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, use_global_device_ids}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.all_reduce' op replica_groups must not repeat an id, got [[0, 1], [1, 2]]

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.all_reduce' op use_global_device_ids requires a channel_handle with handle > 0

// -----

builtin.module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
}
// CHECK: 'stablehlo.all_reduce' op replica_groups holds flattened id 4, but there are 4 (from the module's mhlo.num_replicas/mhlo.num_partitions)

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
  ^bb0(%l: tensor<i32>, %r: tensor<i32>):
    %s = stablehlo.add %l, %r : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.all_reduce' op reducer argument 0 has element type i32, expected f32

// -----

// A variadic all_reduce applies its one reducer to every operand (spec C5).
func.func @f(%x: tensor<4xf32>, %i: tensor<4xi32>) {
  %0:2 = "stablehlo.all_reduce"(%x, %i) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  func.return
}
// CHECK: 'stablehlo.all_reduce' op operands must share one element type, got ['f32', 'i32']

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>) {
  %0:2 = "stablehlo.all_reduce"(%x, %y) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
  ^bb0(%l: tensor<f32>, %l2: tensor<f32>, %r: tensor<f32>, %r2: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    %s2 = stablehlo.add %l2, %r2 : tensor<f32>
    stablehlo.return %s, %s2 : tensor<f32>, tensor<f32>
  }) : (tensor<4xf32>, tensor<8xf32>) -> (tensor<4xf32>, tensor<8xf32>)
  func.return
}
// CHECK: 'stablehlo.all_reduce' op reducer body must take 2 arguments, got 4

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<4xf32>) -> tensor<16xf32>
  func.return
}
// CHECK: 'stablehlo.all_gather' op result 0 must have shape [8] (operand dimension 0 times the group size 2), got [16]

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<4xf32>) -> tensor<8xf32>
  func.return
}
// CHECK: 'stablehlo.all_gather' op all_gather_dim 1 is out of range [0, 1)

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.reduce_scatter"(%y) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>) -> tensor<2xf32>
  func.return
}
// CHECK: 'stablehlo.reduce_scatter' op operand dimension 0 (8) is not divisible by the group size 3

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.reduce_scatter"(%y) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}
// CHECK: 'stablehlo.reduce_scatter' op result must have shape [4] (operand dimension 0 divided by the group size 2), got [8]

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.all_to_all"(%y) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}
// CHECK: 'stablehlo.all_to_all' op group size (2) must equal split_count (4)

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.all_to_all"(%z) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<3x4xf32>) -> tensor<1x8xf32>
  func.return
}
// CHECK: 'stablehlo.all_to_all' op operand 0 dimension 0 (3) is not divisible by split_count (2)

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.all_to_all"(%w) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return
}
// CHECK: 'stablehlo.all_to_all' op result 0 must be tensor<2x8xf32>, got tensor<4x4xf32>

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.collective_permute' op source_target_pairs must not repeat a source, got [[0, 1], [0, 2]]

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [2, 1]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.collective_permute' op source_target_pairs must not repeat a target, got [[0, 1], [2, 1]]

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1, 2]]> : tensor<1x3xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.collective_permute' op source_target_pairs must be an Nx2 integer tensor, got tensor<1x3xi64>

// -----

builtin.module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
}
// CHECK: 'stablehlo.collective_permute' op source_target_pairs holds partition id 2, but there are 2 (from the module's mhlo.num_replicas/mhlo.num_partitions)

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.collective_broadcast"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.collective_broadcast' op replica_groups must not repeat an id, got [[0, 1], [1, 0]]

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.collective_broadcast"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, -1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.collective_broadcast' op replica_groups must hold ids >= 0, got -1

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.collective_broadcast"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xi32>
  func.return
}
// CHECK: 'stablehlo.collective_broadcast' op result 0 must have the operand's type tensor<4xf32>, got tensor<4xi32>

// -----

builtin.module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<3x4xf32>, %w: tensor<4x4xf32>) {
  %0 = "stablehlo.collective_broadcast"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
}
// CHECK: 'stablehlo.collective_broadcast' op replica_groups holds partition id 2, but there are 2 (from the module's mhlo.num_replicas/mhlo.num_partitions)

// -----

func.func @f(%a: tensor<4xi32>) {
  %0 = stablehlo.reduce_precision %a, format = e5m2 : tensor<4xi32>
  func.return
}
// CHECK: 'stablehlo.reduce_precision' op operand element type must be float, got i32

// -----

func.func @f(%a: tensor<4xf32>) {
  %0 = "stablehlo.reduce_precision"(%a) <{exponent_bits = 0 : i32, mantissa_bits = 2 : i32}> : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.reduce_precision' op exponent_bits must be at least 1 and mantissa_bits at least 0

// -----

func.func @f(%s: tensor<2xui64>) {
  %a, %b = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  func.return
}
// CHECK: 'stablehlo.rng_bit_generator' op output_state must have the type of initial_state, tensor<2xui64>, got tensor<3xui64>

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<4xf64>) {
  %0 = stablehlo.complex %a, %b : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xcomplex<f32>>
  func.return
}
// CHECK: 'stablehlo.complex' op operands must both be tensor<4xf32>, got tensor<4xf32> and tensor<4xf64>

// -----

func.func @f(%z: tensor<4xcomplex<f32>>) {
  %0 = stablehlo.real %z : (tensor<4xcomplex<f32>>) -> tensor<4xf64>
  func.return
}
// CHECK: 'stablehlo.real' op result must be tensor<4xf32>, got tensor<4xf64>

// -----

func.func @f(%x: tensor<4x16xf32>) {
  %0 = stablehlo.fft %x, type = RFFT, length = [16] : (tensor<4x16xf32>) -> tensor<4x16xcomplex<f32>>
  func.return
}
// CHECK: 'stablehlo.fft' op RFFT of length [16] does not take tensor<4x16xf32> to tensor<4x16xcomplex<f32>>

// -----

func.func @f(%x: tensor<4x16xf32>) {
  %0 = stablehlo.fft %x, type = FFT, length = [16] : (tensor<4x16xf32>) -> tensor<4x16xf32>
  func.return
}
// CHECK: 'stablehlo.fft' op FFT wants a complex operand, got tensor<4x16xf32>

// -----

func.func @f(%a: tensor<4x16x8xf32>, %b: tensor<4x16x2xf32>) {
  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<4x16x8xf32>, tensor<4x16x2xf32>) -> tensor<4x16x2xf32>
  func.return
}
// CHECK: 'stablehlo.triangular_solve' op a must be a batch of square matrices, got tensor<4x16x8xf32>

// -----

func.func @f(%a: tensor<4x16x16xf32>, %b: tensor<4x16x2xf32>) {
  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = false, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<4x16x16xf32>, tensor<4x16x2xf32>) -> tensor<4x16x2xf32>
  func.return
}
// CHECK: 'stablehlo.triangular_solve' op b's columns must match a's order 16, got tensor<4x16x2xf32>
