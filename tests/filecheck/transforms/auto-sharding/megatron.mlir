// relu(x W1) W2 on a 1-D grid of 8, input and output whole. Under a memory limit
// below one whole weight (65536 bytes), auto-sharding finds Megatron's plan: W1 by
// columns, W2 by rows, the hidden layer split, the output partial, settled by the
// user's annotation (one all_reduce after xshard-spmd). Without a limit, everything
// stays whole: no communication at all.
// RUN: xshard-opt %s -p 'auto-sharding{memory-limit=65535 report=true}' 2>&1 | filecheck %s
// A time limit the solve does not reach changes nothing:
// RUN: xshard-opt %s -p 'auto-sharding{memory-limit=65535 report=true time-limit=60.5}' 2>&1 | filecheck %s
// RUN: xshard-opt %s -p auto-sharding | filecheck %s --check-prefix=FREE
// RUN: xshard-opt %s -p 'xshard-spmd{auto-sharding=true memory-limit=65535}' | filecheck %s --check-prefix=SPMD
// xshard-spmd passes `report` on, and the report names the limit the plan was made under:
// RUN: xshard-opt %s -p 'xshard-spmd{auto-sharding=true memory-limit=65535 report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT
shard.grid @tp(shape = 8)

func.func @main(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>) -> tensor<16x64xf32> {
  %rep = shard.sharding @tp split_axes = [[]] : !shard.sharding
  %x_s = shard.shard %x to %rep : tensor<16x64xf32>
  %h = stablehlo.dot_general %x_s, %w1, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<16x256xf32>
  %a = stablehlo.maximum %h, %zero : tensor<16x256xf32>
  %y = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0] : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  %y_s = shard.shard %y to %rep annotate_for_users : tensor<16x64xf32>
  func.return %y_s : tensor<16x64xf32>
}

// The all_reduce of the 16x64 f32 output over 8 devices: 14 steps of 5 us on NVLink
// (a bucket of its own: 4096 / 32 MiB of another bucket's latency on top).
// CHECK:      auto-sharding @main: cost 7.005e-05 s, 28672 bytes per device, 4 decisions for 4 ops and 2 arguments (4 once repeats are tied), solved in {{[0-9.]+}} s, under memory-limit=65535{{$}}
// REPORT:     auto-sharding @main: cost 7.005e-05 s, 28672 bytes per device, 4 decisions for 4 ops and 2 arguments (4 once repeats are tied), solved in {{[0-9.]+}} s, under memory-limit=65535{{$}}
// REPORT-NOT: auto-sharding
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[X:.*]]: tensor<16x64xf32>, %[[W1:.*]]: tensor<64x256xf32>, %[[W2:.*]]: tensor<256x64xf32>
// CHECK:        %[[S_W1:.*]] = shard.sharding @tp split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-NEXT:   %[[W1A:.*]] = shard.shard %[[W1]] to %[[S_W1]] : tensor<64x256xf32>
// CHECK-NEXT:   %[[S_W2:.*]] = shard.sharding @tp split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:   %[[W2A:.*]] = shard.shard %[[W2]] to %[[S_W2]] : tensor<256x64xf32>
// The user's annotations, unchanged.
// CHECK-NEXT:   %[[REP:.*]] = shard.sharding @tp split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:   %[[XS:.*]] = shard.shard %[[X]] to %[[REP]] : tensor<16x64xf32>
// CHECK-NEXT:   %[[H:.*]] = stablehlo.dot_general %[[XS]], %[[W1A]]
// CHECK-NEXT:   %[[S_H:.*]] = shard.sharding @tp split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-NEXT:   %[[HA:.*]] = shard.shard %[[H]] to %[[S_H]] : tensor<16x256xf32>
// CHECK:        %[[A:.*]] = stablehlo.maximum %[[HA]], %{{.*}}
// CHECK-NEXT:   %[[S_A:.*]] = shard.sharding @tp split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-NEXT:   %[[AA:.*]] = shard.shard %[[A]] to %[[S_A]] : tensor<16x256xf32>
// CHECK-NEXT:   %[[Y:.*]] = stablehlo.dot_general %[[AA]], %[[W2A]]
// CHECK-NEXT:   %[[S_Y:.*]] = shard.sharding @tp split_axes = {{\[\[}}]] partial = sum [0] : !shard.sharding
// CHECK-NEXT:   %[[YA:.*]] = shard.shard %[[Y]] to %[[S_Y]] : tensor<16x64xf32>
// CHECK-NEXT:   %[[YS:.*]] = shard.shard %[[YA]] to %[[REP]] annotate_for_users : tensor<16x64xf32>
// CHECK-NEXT:   func.return %[[YS]]

// FREE-NOT:   split_axes = {{\[\[}}0]]
// FREE-NOT:   split_axes = {{\[\[}}], [0]]
// FREE-NOT:   partial

// SPMD-LABEL: func.func @main(
// SPMD-SAME:    tensor<64x32xf32>
// SPMD-SAME:    tensor<32x64xf32>
// SPMD-COUNT-1: stablehlo.all_reduce
// SPMD-NOT:     stablehlo.all_
