// test-grid-simplifications: upstream's test pass under its name. Arith ops that
// combine like the all-reduce kind take the all-reduce below them; grid_shape of
// static axes folds to constants. Nothing else changes (unlike shard-simplify).
// RUN: xshard-opt %s --split-input-file -p test-grid-simplifications | filecheck %s

shard.grid @g(shape = 2x3)

// CHECK-LABEL: func.func @sum_addi
// CHECK-SAME:    (%[[A:.*]]: tensor<6xi32>, %[[B:.*]]: tensor<6xi32>)
// CHECK-NEXT:    %[[ADD:.*]] = arith.addi %[[A]], %[[B]] : tensor<6xi32>
// CHECK-NEXT:    %[[R:.*]] = shard.all_reduce %[[ADD]] on @g grid_axes = [1] : tensor<6xi32> -> tensor<6xi32>
// CHECK-NEXT:    func.return %[[R]]
func.func @sum_addi(%a: tensor<6xi32>, %b: tensor<6xi32>) -> tensor<6xi32> {
  %0 = shard.all_reduce %a on @g grid_axes = [1] : tensor<6xi32> -> tensor<6xi32>
  %1 = shard.all_reduce %b on @g grid_axes = [1] : tensor<6xi32> -> tensor<6xi32>
  %2 = arith.addi %0, %1 : tensor<6xi32>
  func.return %2 : tensor<6xi32>
}

// CHECK-LABEL: func.func @max_maxnumf
// CHECK-NEXT:    %[[M:.*]] = arith.maxnumf %a, %b : tensor<6xf32>
// CHECK-NEXT:    shard.all_reduce %[[M]] on @g grid_axes = [0, 1] reduction = max
func.func @max_maxnumf(%a: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<6xf32> {
  %0 = shard.all_reduce %a on @g grid_axes = [0, 1] reduction = max : tensor<6xf32> -> tensor<6xf32>
  %1 = shard.all_reduce %b on @g grid_axes = [0, 1] reduction = max : tensor<6xf32> -> tensor<6xf32>
  %2 = arith.maxnumf %0, %1 : tensor<6xf32>
  func.return %2 : tensor<6xf32>
}

// min over max all-reduces does not distribute: left alone.
// CHECK-LABEL: func.func @min_over_max
// CHECK:         shard.all_reduce %a
// CHECK:         shard.all_reduce %b
// CHECK:         arith.minui
func.func @min_over_max(%a: tensor<6xi8>, %b: tensor<6xi8>) -> tensor<6xi8> {
  %0 = shard.all_reduce %a on @g grid_axes = [0] reduction = max : tensor<6xi8> -> tensor<6xi8>
  %1 = shard.all_reduce %b on @g grid_axes = [0] reduction = max : tensor<6xi8> -> tensor<6xi8>
  %2 = arith.minui %0, %1 : tensor<6xi8>
  func.return %2 : tensor<6xi8>
}

// A multiply is no endomorphism of a sum here (shard-simplify's own passes decide
// that elsewhere): left alone.
// CHECK-LABEL: func.func @mulf_untouched
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : tensor<6xf32>
// CHECK-NEXT:    func.return
func.func @mulf_untouched(%a: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<6xf32> {
  %0 = shard.all_reduce %a on @g grid_axes = [0] : tensor<6xf32> -> tensor<6xf32>
  %1 = shard.all_reduce %b on @g grid_axes = [0] : tensor<6xf32> -> tensor<6xf32>
  %2 = arith.mulf %0, %1 : tensor<6xf32>
  func.return %2 : tensor<6xf32>
}

// -----

shard.grid @d(shape = 4x?)

// CHECK-LABEL: func.func @grid_shape
// CHECK-NEXT:    %[[DYN:.*]] = shard.grid_shape @d axes = [1] : index
// CHECK-NEXT:    %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-NEXT:    func.return %[[DYN]], %[[FOUR]]
func.func @grid_shape() -> (index, index) {
  %0:2 = shard.grid_shape @d axes = [1, 0] : index, index
  func.return %0#0, %0#1 : index, index
}
