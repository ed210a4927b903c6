// comm-report on StableHLO: groups are replica_groups, collective_permute counts
// its source-target pairs. The same program at the
// shard level and after convert-shard-to-stablehlo{target=gpu} costs the same;
// all_slice (no communication) becomes a local dynamic_slice and leaves the table.
// RUN: xshard-opt %s -p comm-report | filecheck %s --check-prefix=SHARD
// RUN: xshard-opt %s -p 'convert-shard-to-stablehlo{target=gpu},comm-report' | filecheck %s --check-prefix=HLO

shard.grid @g(shape = 2x4)

// SHARD:      // comm report for @main
// SHARD:      // total 7 collectives 800 720
// HLO:        // comm report for @main
// HLO-NEXT:   // op at groups group size bytes/device ring cost
// HLO-NEXT:   // stablehlo.all_reduce - {{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]] 4 128 192
// HLO-NEXT:   // stablehlo.all_gather - {{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]] 4 32 96
// HLO-NEXT:   // stablehlo.reduce_scatter - {{\[\[}}0, 1, 2, 3, 4, 5, 6, 7]] 8 128 112
// HLO-NEXT:   // stablehlo.all_to_all - {{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]] 2 128 64
// HLO-NEXT:   // stablehlo.collective_broadcast - {{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]] 4 128 128
// HLO-NEXT:   // stablehlo.collective_permute - 6 pairs 2 128 128
// HLO-NEXT:   // total 6 collectives 672 720
func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x2xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>, tensor<2x16xf32>, tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x8xf32>) {
  %0 = shard.all_reduce %x on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_gather %y on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  %2 = shard.reduce_scatter %x on @g grid_axes = [0, 1] scatter_axis = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %3 = shard.all_to_all %x on @g grid_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x8xf32> -> tensor<2x16xf32>
  %4 = shard.broadcast %x on @g grid_axes = [1] root = [0] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = shard.all_slice %x on @g grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
  %6 = shard.shift %x on @g grid_axes = [1] shift_axis = 1 offset = 1 : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %0, %1, %2, %3, %4, %5, %6 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>, tensor<2x16xf32>, tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x8xf32>
}
