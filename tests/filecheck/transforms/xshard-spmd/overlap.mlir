// xshard-spmd{overlap=...} runs shard-decompose-all-gather after shard-simplify: the
// column-parallel layer's all_gather of x becomes 4 collective_broadcasts on GPUs
// (root first in each group) or 3 collective_permutes; overlap=none keeps it.
// RUN: xshard-opt %s -p 'xshard-spmd{target=gpu overlap=broadcast}' | filecheck %s --check-prefix=BCAST
// RUN: xshard-opt %s -p 'xshard-spmd{overlap=ring}' | filecheck %s --check-prefix=RING
// RUN: xshard-opt %s -p 'xshard-spmd{overlap=none}' | filecheck %s --check-prefix=NONE
// RUN: xshard-opt %s -p 'xshard-spmd{overlap=auto}' | filecheck %s --check-prefix=NONE

shard.grid @m(shape = 4)

func.func @main(%x: tensor<16x8xf32>, %w: tensor<8x32xf32>) -> tensor<16x32xf32> {
  %seq = shard.sharding @m split_axes = [[0]] : !shard.sharding
  %col = shard.sharding @m split_axes = [[], [0]] : !shard.sharding
  %x_s = shard.shard %x to %seq : tensor<16x8xf32>
  %w_s = shard.shard %w to %col : tensor<8x32xf32>
  %y = stablehlo.dot_general %x_s, %w_s, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
  %y_r = shard.shard %y to %col : tensor<16x32xf32>
  %y_s = shard.shard %y_r to %col annotate_for_users : tensor<16x32xf32>
  func.return %y_s : tensor<16x32xf32>
}

// BCAST-NOT:  all_gather
// BCAST:      "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[0, 1, 2, 3]]>
// BCAST:      "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[1, 0, 2, 3]]>
// BCAST:      "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[2, 0, 1, 3]]>
// BCAST:      "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[3, 0, 1, 2]]>
// BCAST:      stablehlo.concatenate {{.*}} -> tensor<16x8xf32>
// BCAST-NOT:  all_gather
// RING-NOT:   all_gather
// RING-COUNT-3: "stablehlo.collective_permute"({{.*}}source_target_pairs = dense<{{\[}}[0, 1], [1, 2], [2, 3], [3, 0]]>
// RING-NOT:   collective_permute
// RING-NOT:   all_gather
// NONE:       "stablehlo.all_gather"
// NONE-NOT:   collective_permute
