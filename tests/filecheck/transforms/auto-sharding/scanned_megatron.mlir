// A scanned 4-layer MLP, h = h + tanh(h W1[i]) W2[i], its stacked weights carried
// through a `stablehlo.while` as `lax.scan` lowers it, on a 1-D grid of 8. Under a
// memory limit below the stacked weights (2 x 262144 bytes), auto-sharding gives each
// carry one layout for every trip: W1 by columns and W2 by rows (Megatron), in the
// loop's body and in its arguments, the hidden layer split, `v` partial and settled
// once per trip (4 trips of the 70 us all_reduce: the cost). The carried weights are
// read-only, so the loop holds them in the arguments' buffers, and each trip's slice
// and its reshape are one buffer: 92160 bytes (XLA holds `jax.jit`'s same plan in 92256).
// RUN: xshard-opt %s -p 'auto-sharding{memory-limit=300000 report=true}' 2>&1 | filecheck %s
// RUN: xshard-opt %s -p 'xshard-spmd{auto-sharding=true memory-limit=300000}' | filecheck %s --check-prefix=SPMD
shard.grid @tp(shape = 8)

func.func @main(%x: tensor<16x64xf32>, %w1: tensor<4x64x256xf32>, %w2: tensor<4x256x64xf32>) -> tensor<16x64xf32> {
  %rep = shard.sharding @tp split_axes = [[]] : !shard.sharding
  %x_s = shard.shard %x to %rep : tensor<16x64xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %c0, %h = %x_s, %a = %w1, %b = %w2) : tensor<i32>, tensor<16x64xf32>, tensor<4x64x256xf32>, tensor<4x256x64xf32>
  cond {
    %n = stablehlo.constant dense<4> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %wa = stablehlo.dynamic_slice %a, %i, %z, %z, sizes = [1, 64, 256] : (tensor<4x64x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x256xf32>
    %wa2 = stablehlo.reshape %wa : (tensor<1x64x256xf32>) -> tensor<64x256xf32>
    %wb = stablehlo.dynamic_slice %b, %i, %z, %z, sizes = [1, 256, 64] : (tensor<4x256x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x256x64xf32>
    %wb2 = stablehlo.reshape %wb : (tensor<1x256x64xf32>) -> tensor<256x64xf32>
    %u = stablehlo.dot_general %h, %wa2, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
    %t = stablehlo.tanh %u : tensor<16x256xf32>
    %v = stablehlo.dot_general %t, %wb2, contracting_dims = [1] x [0] : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
    %h2 = stablehlo.add %h, %v : tensor<16x64xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %h2, %a, %b : tensor<i32>, tensor<16x64xf32>, tensor<4x64x256xf32>, tensor<4x256x64xf32>
  }
  %y_s = shard.shard %r#1 to %rep annotate_for_users : tensor<16x64xf32>
  func.return %y_s : tensor<16x64xf32>
}

// CHECK:      auto-sharding @main: cost 2.802e-04 s, 92160 bytes per device, 14 decisions for 14 ops and 2 arguments (14 once repeats are tied), solved in {{[0-9.]+}} s
// CHECK-LABEL: func.func @main(
// CHECK:        %[[S_W1:.*]] = shard.sharding @tp split_axes = {{\[\[}}], [], [0]] : !shard.sharding
// CHECK-NEXT:   %[[W1A:.*]] = shard.shard %w1 to %[[S_W1]] : tensor<4x64x256xf32>
// CHECK-NEXT:   %[[S_W2:.*]] = shard.sharding @tp split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-NEXT:   %[[W2A:.*]] = shard.shard %w2 to %[[S_W2]] : tensor<4x256x64xf32>
// CHECK:        %{{.*}}:4 = stablehlo.while(%i = %{{.*}}, %h = %x_s, %a = %[[W1A]], %b = %[[W2A]])
// CHECK:        } do {
// Each carry in the body laid out as on entry:
// CHECK:          shard.shard %h to %{{.*}} : tensor<16x64xf32>
// CHECK:          %[[SA:.*]] = shard.sharding @tp split_axes = {{\[\[}}], [], [0]] : !shard.sharding
// CHECK-NEXT:     %[[A:.*]] = shard.shard %a to %[[SA]] : tensor<4x64x256xf32>
// CHECK-NEXT:     %[[SB:.*]] = shard.sharding @tp split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-NEXT:     %[[B:.*]] = shard.shard %b to %[[SB]] : tensor<4x256x64xf32>
// CHECK:          stablehlo.dynamic_slice %[[A]]
// CHECK:          stablehlo.dot_general
// CHECK:          %[[SV:.*]] = shard.sharding @tp split_axes = {{\[\[}}]] partial = sum [0] : !shard.sharding
// CHECK:          stablehlo.return %{{.*}}, %{{.*}}, %[[A]], %[[B]]
// After the loop, its results in the carries' layouts:
// CHECK:        shard.shard %r#2 to %{{.*}} : tensor<4x64x256xf32>
// CHECK:        shard.shard %r#3 to %{{.*}} : tensor<4x256x64xf32>

// Each device holds an eighth of each stack, in the loop too; one all_reduce per trip.
// SPMD-LABEL: func.func @main(
// SPMD-SAME:    tensor<4x64x32xf32>
// SPMD-SAME:    tensor<4x32x64xf32>
// SPMD:         stablehlo.while({{.*}}) : tensor<i32>, tensor<16x64xf32>, tensor<4x64x32xf32>, tensor<4x32x64xf32>
// SPMD:         } do {
// SPMD-COUNT-1:   stablehlo.all_reduce
// SPMD-NOT:       stablehlo.all_
// SPMD:           stablehlo.return
// SPMD-NOT:     stablehlo.all_
// SPMD:         func.return
