// An all_gather whose only user is a dot_general taking the gathered dim as a free
// or batch dim becomes one step per device of the group. broadcast: step i broadcasts device
// i's shard (root = i within each group) and multiplies it; the step results are
// concatenated in step order. ring: each device multiplies the chunk it holds and
// passes it on (shift ... rotate, N-1 times); device d's step s result, chunk
// (d - s) mod N, goes to those rows by dynamic_update_slice (partition_id arithmetic).
// Each step's communication comes before the previous step's matmul.
// RUN: xshard-opt %s --split-input-file -p 'shard-decompose-all-gather{strategy=broadcast}' | filecheck %s --check-prefix=BCAST
// RUN: xshard-opt %s --split-input-file -p 'shard-decompose-all-gather{strategy=ring}' | filecheck %s --check-prefix=RING
// On GPUs each broadcast is a collective_broadcast whose groups start with the root.
// RUN: xshard-opt %s --split-input-file -p 'shard-decompose-all-gather{strategy=broadcast},convert-shard-to-stablehlo{target=gpu}' | filecheck %s --check-prefix=GPU

// numerics
shard.grid @g(shape = 4)
// BCAST-LABEL: func.func @main
// BCAST-NEXT:    %0 = shard.broadcast %x on @g grid_axes = [0] root = [0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
// BCAST-NEXT:    %1 = shard.broadcast %x on @g grid_axes = [0] root = [1]
// BCAST-NEXT:    %2 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
// BCAST-NEXT:    %3 = shard.broadcast %x on @g grid_axes = [0] root = [2]
// BCAST-NEXT:    %4 = stablehlo.dot_general %1, %w
// BCAST-NEXT:    %5 = shard.broadcast %x on @g grid_axes = [0] root = [3]
// BCAST-NEXT:    %6 = stablehlo.dot_general %3, %w
// BCAST-NEXT:    %7 = stablehlo.dot_general %5, %w
// BCAST-NEXT:    %8 = stablehlo.concatenate %2, %4, %6, %7, dim = 0 : {{.*}} -> tensor<8x5xf32>
// BCAST-NEXT:    func.return %8 : tensor<8x5xf32>
// RING-LABEL: func.func @main
// RING-NEXT:    %[[PID:.*]] = stablehlo.partition_id
// RING-NEXT:    %[[D:.*]] = stablehlo.convert %[[PID]] : (tensor<ui32>) -> tensor<i64>
// RING-NEXT:    %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<i64>
// RING-NEXT:    %[[N:.*]] = stablehlo.constant dense<4> : tensor<i64>
// RING-NEXT:    %[[C:.*]] = stablehlo.constant dense<2> : tensor<i64>
// RING-NEXT:    %[[ACC:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<8x5xf32>
// RING-NEXT:    %[[X1:.*]] = shard.shift %x on @g grid_axes = [0] shift_axis = 0 offset = 1 rotate : tensor<2x3xf32> -> tensor<2x3xf32>
// RING-NEXT:    %[[OFF0:.*]] = stablehlo.multiply %[[D]], %[[C]]
// RING-NEXT:    %[[Y0:.*]] = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
// RING-NEXT:    %[[ACC0:.*]] = stablehlo.dynamic_update_slice %[[ACC]], %[[Y0]], %[[OFF0]], %[[ZERO]]
// RING-NEXT:    %[[X2:.*]] = shard.shift %[[X1]] on @g grid_axes = [0] shift_axis = 0 offset = 1 rotate
// RING-NEXT:    %[[S1:.*]] = stablehlo.constant dense<3> : tensor<i64>
// RING-NEXT:    %[[P1:.*]] = stablehlo.add %[[D]], %[[S1]]
// RING-NEXT:    %[[I1:.*]] = stablehlo.remainder %[[P1]], %[[N]]
// RING-NEXT:    %[[OFF1:.*]] = stablehlo.multiply %[[I1]], %[[C]]
// RING-NEXT:    %[[Y1:.*]] = stablehlo.dot_general %[[X1]], %w
// RING-NEXT:    %[[ACC1:.*]] = stablehlo.dynamic_update_slice %[[ACC0]], %[[Y1]], %[[OFF1]], %[[ZERO]]
// RING-NEXT:    %[[X3:.*]] = shard.shift %[[X2]]
// RING:         %[[Y2:.*]] = stablehlo.dot_general %[[X2]], %w
// RING-NEXT:    %[[ACC2:.*]] = stablehlo.dynamic_update_slice %[[ACC1]], %[[Y2]]
// RING:         %[[Y3:.*]] = stablehlo.dot_general %[[X3]], %w
// RING-NEXT:    %[[ACC3:.*]] = stablehlo.dynamic_update_slice %[[ACC2]], %[[Y3]]
// RING-NEXT:    func.return %[[ACC3]] : tensor<8x5xf32>
// RING-NOT:     shard.shift
// GPU-LABEL: func.func @main
// GPU:         "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[0, 1, 2, 3]]>
// GPU:         "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[1, 0, 2, 3]]>
// GPU:         "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[2, 0, 1, 3]]>
// GPU:         "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[3, 0, 1, 2]]>
// GPU-NOT:     all_gather
func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x5xf32>) -> tensor<8x5xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [0] gather_axis = 0 : tensor<2x3xf32> -> tensor<8x3xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<8x3xf32>, tensor<3x5xf32>) -> tensor<8x5xf32>
  func.return %1 : tensor<8x5xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// One axis of a 2-D grid: groups along axis 1, root = step index within each group
// (device 4 + i in the second row's group); the ring's position is partition_id % 4.
// BCAST-LABEL: func.func @main
// BCAST-COUNT-4: shard.broadcast %x on @g grid_axes = [1] root = [{{[0-3]}}]
// BCAST:         stablehlo.concatenate {{.*}} -> tensor<8x5xf32>
// RING-LABEL: func.func @main
// RING:          %[[D:.*]] = stablehlo.convert
// RING-NEXT:     %[[FOUR:.*]] = stablehlo.constant dense<4> : tensor<i64>
// RING-NEXT:     %{{.*}} = stablehlo.remainder %[[D]], %[[FOUR]] : tensor<i64>
// RING-COUNT-3:  shard.shift {{.*}} on @g grid_axes = [1] shift_axis = 1 offset = 1 rotate
// RING-NOT:      shard.shift
// GPU-LABEL: func.func @main
// GPU:         "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[0, 1, 2, 3], [4, 5, 6, 7]]>
// GPU:         "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[1, 0, 2, 3], [5, 4, 6, 7]]>
// GPU:         "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[2, 0, 1, 3], [6, 4, 5, 7]]>
// GPU:         "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[3, 0, 1, 2], [7, 4, 5, 6]]>
func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x5xf32>) -> tensor<8x5xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 0 : tensor<2x3xf32> -> tensor<8x3xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<8x3xf32>, tensor<3x5xf32>) -> tensor<8x5xf32>
  func.return %1 : tensor<8x5xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// The gathered operand is the rhs: its free dim is the result's dim 1 (after the
// lhs's free dim); on axis 0 the ring's position is partition_id / 4.
// BCAST-LABEL: func.func @main
// BCAST-NEXT:    %0 = shard.broadcast %x on @g grid_axes = [0] root = [0]
// BCAST-NEXT:    %1 = shard.broadcast %x on @g grid_axes = [0] root = [1]
// BCAST-NEXT:    %2 = stablehlo.dot_general %w, %0, contracting_dims = [1] x [0] : (tensor<5x3xf32>, tensor<3x2xf32>) -> tensor<5x2xf32>
// BCAST-NEXT:    %3 = stablehlo.dot_general %w, %1
// BCAST-NEXT:    %4 = stablehlo.concatenate %2, %3, dim = 1 : {{.*}} -> tensor<5x4xf32>
// RING-LABEL: func.func @main
// RING:          %[[D:.*]] = stablehlo.convert
// RING-NEXT:     %[[FOUR:.*]] = stablehlo.constant dense<4> : tensor<i64>
// RING-NEXT:     %[[POS:.*]] = stablehlo.divide %[[D]], %[[FOUR]] : tensor<i64>
// RING:          %[[OFF:.*]] = stablehlo.multiply %[[POS]]
// RING-NEXT:     stablehlo.dot_general
// RING-NEXT:     stablehlo.dynamic_update_slice %{{.*}}, %{{.*}}, %{{.*}}, %[[OFF]] : (tensor<5x4xf32>, tensor<5x2xf32>
func.func @main(%w: tensor<5x3xf32>, %x: tensor<3x2xf32>) -> tensor<5x4xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [0] gather_axis = 1 : tensor<3x2xf32> -> tensor<3x4xf32>
  %1 = stablehlo.dot_general %w, %0, contracting_dims = [1] x [0] : (tensor<5x3xf32>, tensor<3x4xf32>) -> tensor<5x4xf32>
  func.return %1 : tensor<5x4xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// A group over both axes: 8 broadcasts, roots in row-major order. A shift moves
// along one axis, so the ring does not apply and the gather stays.
// BCAST-LABEL: func.func @main
// BCAST-NEXT:    shard.broadcast %x on @g grid_axes = [0, 1] root = [0, 0]
// BCAST-NEXT:    shard.broadcast %x on @g grid_axes = [0, 1] root = [0, 1]
// BCAST:         shard.broadcast %x on @g grid_axes = [0, 1] root = [0, 3]
// BCAST:         shard.broadcast %x on @g grid_axes = [0, 1] root = [1, 0]
// BCAST:         shard.broadcast %x on @g grid_axes = [0, 1] root = [1, 3]
// BCAST:         stablehlo.concatenate {{.*}} -> tensor<8x5xf32>
// RING-LABEL: func.func @main
// RING-NEXT:     shard.all_gather
func.func @main(%x: tensor<1x3xf32>, %w: tensor<3x5xf32>) -> tensor<8x5xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [0, 1] gather_axis = 0 : tensor<1x3xf32> -> tensor<8x3xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<8x3xf32>, tensor<3x5xf32>) -> tensor<8x5xf32>
  func.return %1 : tensor<8x5xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// With batch dims: the lhs's free dim 1 is the result's dim 1 (after the batch dim).
// BCAST-LABEL: func.func @main
// BCAST:         stablehlo.dot_general %{{.*}}, %w, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x1x5xf32>, tensor<3x5x2xf32>) -> tensor<3x1x2xf32>
// BCAST:         stablehlo.concatenate {{.*}}, dim = 1 : {{.*}} -> tensor<3x4x2xf32>
// RING-LABEL: func.func @main
// RING:          %[[Z:.*]] = stablehlo.constant dense<0> : tensor<i64>
// RING:          stablehlo.dynamic_update_slice %{{.*}}, %{{.*}}, %[[Z]], %{{.*}}, %[[Z]] : (tensor<3x4x2xf32>, tensor<3x1x2xf32>
func.func @main(%x: tensor<3x1x5xf32>, %w: tensor<3x5x2xf32>) -> tensor<3x4x2xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1 : tensor<3x1x5xf32> -> tensor<3x4x5xf32>
  %1 = stablehlo.dot_general %0, %w, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x4x5xf32>, tensor<3x5x2xf32>) -> tensor<3x4x2xf32>
  func.return %1 : tensor<3x4x2xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// The rhs's free dim 2 comes after its batch dim 1 and contracted dim 0; in the
// result it is dim 2, after the batch dim and the lhs's free dim.
// BCAST-LABEL: func.func @main
// BCAST:         stablehlo.dot_general %w, %{{.*}} : (tensor<3x2x5xf32>, tensor<5x3x2xf32>) -> tensor<3x2x2xf32>
// BCAST:         stablehlo.concatenate {{.*}}, dim = 2 : {{.*}} -> tensor<3x2x8xf32>
// RING-LABEL: func.func @main
// RING:          %[[Z:.*]] = stablehlo.constant dense<0> : tensor<i64>
// RING:          stablehlo.dynamic_update_slice %{{.*}}, %{{.*}}, %[[Z]], %[[Z]], %{{.*}} : (tensor<3x2x8xf32>, tensor<3x2x2xf32>
func.func @main(%w: tensor<3x2x5xf32>, %x: tensor<5x3x2xf32>) -> tensor<3x2x8xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 2 : tensor<5x3x2xf32> -> tensor<5x3x8xf32>
  %1 = stablehlo.dot_general %w, %0, batching_dims = [0] x [1], contracting_dims = [2] x [0] : (tensor<3x2x5xf32>, tensor<5x3x8xf32>) -> tensor<3x2x8xf32>
  func.return %1 : tensor<3x2x8xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// A gathered batch dim: result dim 0 splits alike, and each step cuts the rhs's
// batch dim to the step's chunk (a slice at the step; a dynamic_slice at the
// chunk the ring holds).
// BCAST-LABEL: func.func @main
// BCAST:         %[[W0:.*]] = stablehlo.slice %w [0:1, 0:3, 0:5]
// BCAST-NEXT:    stablehlo.dot_general %{{.*}}, %[[W0]], batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<1x2x3xf32>, tensor<1x3x5xf32>) -> tensor<1x2x5xf32>
// BCAST:         stablehlo.slice %w [3:4, 0:3, 0:5]
// BCAST:         stablehlo.concatenate {{.*}}, dim = 0 : {{.*}} -> tensor<4x2x5xf32>
// RING-LABEL: func.func @main
// RING:          %[[OFF:.*]] = stablehlo.multiply
// RING:          %[[W:.*]] = stablehlo.dynamic_slice %w, %[[OFF]], %{{.*}}, %{{.*}}, sizes = [1, 3, 5]
// RING-NEXT:     stablehlo.dot_general %x, %[[W]]
// RING-NEXT:     stablehlo.dynamic_update_slice %{{.*}}, %{{.*}}, %[[OFF]], %{{.*}}, %{{.*}} : (tensor<4x2x5xf32>, tensor<1x2x5xf32>
func.func @main(%x: tensor<1x2x3xf32>, %w: tensor<4x3x5xf32>) -> tensor<4x2x5xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 0 : tensor<1x2x3xf32> -> tensor<4x2x3xf32>
  %1 = stablehlo.dot_general %0, %w, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
  func.return %1 : tensor<4x2x5xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// The rhs's batch dim 1 gathered over axis 0: the lhs's batch dim 1 is cut alike.
// BCAST-LABEL: func.func @main
// BCAST:         stablehlo.slice %w [0:2, 0:4, 0:3]
// BCAST:         stablehlo.slice %w [0:2, 4:8, 0:3]
// BCAST:         stablehlo.concatenate {{.*}}, dim = 0 : {{.*}} -> tensor<8x2x5xf32>
// RING-LABEL: func.func @main
// RING-COUNT-2:  stablehlo.dynamic_slice %w, %{{.*}}, %{{.*}}, %{{.*}}, sizes = [2, 4, 3]
func.func @main(%w: tensor<2x8x3xf32>, %x: tensor<3x4x5xf32>) -> tensor<8x2x5xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [0] gather_axis = 1 : tensor<3x4x5xf32> -> tensor<3x8x5xf32>
  %1 = stablehlo.dot_general %w, %0, batching_dims = [1] x [1], contracting_dims = [2] x [0] : (tensor<2x8x3xf32>, tensor<3x8x5xf32>) -> tensor<8x2x5xf32>
  func.return %1 : tensor<8x2x5xf32>
}

// -----

shard.grid @g(shape = 4)
// The gathered value is also returned: that user needs it whole, so it stays.
// BCAST-LABEL: func.func @main
// BCAST-NEXT:    shard.all_gather
// BCAST-NEXT:    stablehlo.dot_general %0, %w
// RING-LABEL: func.func @main
// RING-NEXT:     shard.all_gather
// RING-NEXT:     stablehlo.dot_general %0, %w
func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x5xf32>) -> (tensor<8x5xf32>, tensor<8x3xf32>) {
  %0 = shard.all_gather %x on @g grid_axes = [0] gather_axis = 0 : tensor<2x3xf32> -> tensor<8x3xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<8x3xf32>, tensor<3x5xf32>) -> tensor<8x5xf32>
  func.return %1, %0 : tensor<8x5xf32>, tensor<8x3xf32>
}

// -----

shard.grid @g(shape = 4)
// The gathered dim is contracted: no result rows to split it into.
// BCAST-LABEL: func.func @main
// BCAST-NEXT:    shard.all_gather
// RING-LABEL: func.func @main
// RING-NEXT:     shard.all_gather
func.func @main(%x: tensor<3x2xf32>, %w: tensor<8x5xf32>) -> tensor<3x5xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [0] gather_axis = 1 : tensor<3x2xf32> -> tensor<3x8xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<3x8xf32>, tensor<8x5xf32>) -> tensor<3x5xf32>
  func.return %1 : tensor<3x5xf32>
}
