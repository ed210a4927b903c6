// Three data-parallel "gradients" (x^T x over rows split 8 ways), each left partial
// and settled where it is returned: three all_reduces, independent of each other, which
// XLA's all-reduce combiner makes one. The ILP prices them so (buckets.py): one 70 us
// latency (14 steps of 5 us on NVLink) and each its bytes, 70.03 us, where it priced
// each alone, 210 us.
// RUN: xshard-opt %s -p 'auto-sharding{report=true}' 2>&1 | filecheck %s
// RUN: xshard-opt %s -p 'xshard-spmd{auto-sharding=true}' | filecheck %s --check-prefix=SPMD
shard.grid @dp(shape = 8)

func.func @main(%x: tensor<64x16xf32>, %y: tensor<64x16xf32>, %z: tensor<64x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) {
  %rows = shard.sharding @dp split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %rows : tensor<64x16xf32>
  %y_s = shard.shard %y to %rows : tensor<64x16xf32>
  %z_s = shard.shard %z to %rows : tensor<64x16xf32>
  %gx = stablehlo.dot_general %x_s, %x_s, contracting_dims = [0] x [0] : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<16x16xf32>
  %gy = stablehlo.dot_general %y_s, %y_s, contracting_dims = [0] x [0] : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<16x16xf32>
  %gz = stablehlo.dot_general %z_s, %z_s, contracting_dims = [0] x [0] : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<16x16xf32>
  func.return %gx, %gy, %gz : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}

// CHECK:      auto-sharding @main: cost 7.003e-05 s, 7680 bytes per device, 3 decisions for 3 ops and 0 arguments (3 once repeats are tied), solved in {{[0-9.]+}} s
// CHECK-COUNT-3: shard.sharding @dp split_axes = {{\[\[}}]] partial = sum [0] : !shard.sharding
// CHECK-NOT:  partial

// Each settled on its own in xshard's program; XLA combines them (a test in
// tests/test_auto_sharding_jit.py prices what XLA runs).
// SPMD-LABEL:   func.func @main(
// SPMD-COUNT-3: stablehlo.all_reduce
// SPMD-NOT:     stablehlo.all_
