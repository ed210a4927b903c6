// A `stablehlo.case` as `lax.cond` lowers a gradient accumulation (optax's
// `MultiSteps`): one branch adds the gradient to the accumulator, the other applies
// it. Under a memory limit below the three 65536-byte arrays, auto-sharding gives the
// case's result one layout that both branches yield, and plans the branches' ops like
// any other: everything split by rows, no collective. Before branches were planned,
// the case's result was whole whatever the plan, and no plan held under 81924 bytes.
// RUN: xshard-opt %s -p 'auto-sharding{memory-limit=60000 report=true}' 2>&1 | filecheck %s
// RUN: xshard-opt %s -p 'xshard-spmd{auto-sharding=true memory-limit=60000}' | filecheck %s --check-prefix=SPMD
shard.grid @g(shape = 8)

func.func @main(%w: tensor<256x64xf32>, %acc: tensor<256x64xf32>, %k: tensor<i32>) -> tensor<256x64xf32> {
  %r = "stablehlo.case"(%k) ({
    %s = stablehlo.add %acc, %w : tensor<256x64xf32>
    stablehlo.return %s : tensor<256x64xf32>
  }, {
    %c = stablehlo.constant dense<1.000000e-01> : tensor<256x64xf32>
    %u = stablehlo.multiply %acc, %c : tensor<256x64xf32>
    %n = stablehlo.subtract %w, %u : tensor<256x64xf32>
    stablehlo.return %n : tensor<256x64xf32>
  }) : (tensor<i32>) -> tensor<256x64xf32>
  func.return %r : tensor<256x64xf32>
}

// CHECK:      auto-sharding @main: cost {{.*}}, 32772 bytes per device, 4 decisions
// CHECK:      %w_1 = shard.shard %w to %{{.*}} : tensor<256x64xf32>
// CHECK:      %k_1 = shard.shard %k to %{{.*}} : tensor<i32>
// CHECK:      %r = "stablehlo.case"(%k_1) ({
// CHECK-NEXT:   %s = stablehlo.add %acc_1, %w_1 : tensor<256x64xf32>
// CHECK-NEXT:   %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:   %s_1 = shard.shard %s to %[[S]] : tensor<256x64xf32>
// CHECK-NEXT:   stablehlo.return %s_1 : tensor<256x64xf32>
// CHECK:        %n_1 = shard.shard %n to %{{.*}} : tensor<256x64xf32>
// CHECK-NEXT:   stablehlo.return %n_1 : tensor<256x64xf32>
// CHECK-NEXT: }) : (tensor<i32>) -> tensor<256x64xf32>
// CHECK-NEXT: %[[R:.*]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT: %r_1 = shard.shard %r to %[[R]] : tensor<256x64xf32>

// SPMD:      func.func @main(%w: tensor<32x64xf32> {{.*}}, %acc: tensor<32x64xf32> {{.*}}, %k: tensor<i32> {{.*}}) -> (tensor<32x64xf32> {{.*}}) {
// SPMD-NEXT:   %0 = "stablehlo.case"(%k) ({
// SPMD-NEXT:     %1 = stablehlo.add %acc, %w : tensor<32x64xf32>
// SPMD-NEXT:     stablehlo.return %1 : tensor<32x64xf32>
// SPMD-NEXT:   }, {
// SPMD-NEXT:     %2 = stablehlo.constant dense<1.000000e-01> : tensor<32x64xf32>
// SPMD-NEXT:     %3 = stablehlo.multiply %acc, %2 : tensor<32x64xf32>
// SPMD-NEXT:     %4 = stablehlo.subtract %w, %3 : tensor<32x64xf32>
// SPMD-NEXT:     stablehlo.return %4 : tensor<32x64xf32>
// SPMD-NEXT:   }) : (tensor<i32>) -> tensor<32x64xf32>
// SPMD-NEXT:   func.return %0 : tensor<32x64xf32>
