// RUN: xshard-opt %s -p convert-broadcast-to-all-reduce --split-input-file --verify-diagnostics | filecheck %s

// The all_reduce's replica_groups are one dense matrix: the partitions in no group
// (2 and 7) cannot fill groups of 3.
module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.collective_broadcast"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[6, 1, 3], [0, 4, 5]]> : tensor<2x3xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }
}
// CHECK: invalid.mlir:7:5: error: cannot convert 'stablehlo.collective_broadcast' to StableHLO: partitions [2, 7] are in no replica group and do not fill groups of 3, which the all_reduce standing in for it needs

// -----

// Without mhlo.num_partitions or a grid, the table has no length.
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.collective_broadcast"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// CHECK: invalid.mlir:17:3: error: cannot convert 'stablehlo.collective_broadcast' to StableHLO: the partition count is unknown (no mhlo.num_partitions, no grid)
