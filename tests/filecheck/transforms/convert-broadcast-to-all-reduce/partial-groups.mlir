// Partitions in no replica group of a collective_broadcast get zeros: they form the
// all_reduce's remaining groups, of the broadcast's group size (XLA wants every
// partition in a group), and are never sources.
// RUN: xshard-opt %s -p convert-broadcast-to-all-reduce | filecheck %s

// CHECK-LABEL: func.func @main
// CHECK:         stablehlo.constant dense<[false, false, true, false, false, false, false, false]> : tensor<8xi1>
// CHECK:         "stablehlo.all_reduce"(%{{.*}}) <{{{.*}}replica_groups = dense<{{\[}}[2, 1], [0, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, use_global_device_ids}>
// CHECK-NOT:     stablehlo.collective_broadcast
module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.collective_broadcast"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[2, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }
}
