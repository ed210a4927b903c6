// JAX's masked-psum broadcast idiom, as tools/xla_comm_report.py's
// `masked_psum_broadcast`: psum(where(axis_index("m") == 3, x, 0), "m") inside a
// shard_map over a 1-D mesh of 8, x split 8 ways (8 of 64 elements per device).
// Written per device at the shard level: the StableHLO JAX emits for the shard_map
// body (axis_index from partition_id), with its all_reduce as shard.all_reduce.
// Every device ends with device 3's block.
shard.grid @m(shape = 8)

func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %id = stablehlo.partition_id : tensor<ui32>
  %c8 = stablehlo.constant dense<8> : tensor<ui32>
  %axis_index = stablehlo.remainder %id, %c8 : tensor<ui32>
  %i = stablehlo.convert %axis_index : (tensor<ui32>) -> tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %root = stablehlo.compare EQ, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<8xf32>
  %masked = stablehlo.select %root, %x, %zero : tensor<i1>, tensor<8xf32>
  %sum = shard.all_reduce %masked on @m grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  func.return %sum : tensor<8xf32>
}
