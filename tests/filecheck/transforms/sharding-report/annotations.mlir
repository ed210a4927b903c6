// The report on its own, before any propagation: the IR is printed unchanged,
// values nobody annotated show `-`, a user's reshard chain (a result annotation,
// then a different one for the users) is planned, agreeing annotations need no
// reshard, `file=` appends each chunk's report to a file instead of standard
// output, and a sharding with a halo size known only at run time is an error
// at its op.
// RUN: xshard-opt %s --split-input-file --verify-diagnostics -p sharding-report | filecheck %s
// RUN: rm -f %t && xshard-opt %s --split-input-file --verify-diagnostics -p 'sharding-report{file="%t"}' | filecheck %s --check-prefix=IR
// RUN: filecheck %s --input-file=%t --check-prefix=FILE

shard.grid @grid4(shape = 2x2)

func.func @chained(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s_rows = shard.sharding @grid4 split_axes = [[0, 1]] : !shard.sharding
  %0 = shard.shard %a to %s_rows : tensor<8x16xf32>
  %s_cols = shard.sharding @grid4 split_axes = [[], [1]] : !shard.sharding
  %1 = shard.shard %0 to %s_cols annotate_for_users : tensor<8x16xf32>
  %2 = stablehlo.add %1, %b : tensor<8x16xf32>
  func.return %2 : tensor<8x16xf32>
}

// CHECK:      // sharding report for @chained
// CHECK-NEXT: // value  defined by     at    type              split axes  partial  annotation
// CHECK-NEXT: // %a     argument 0     -     tensor<8x16xf32>  {{\[\[}}0, 1], []]  -  input 15:3
// CHECK-NEXT: // %b     argument 1     -     tensor<8x16xf32>  -           -        -
// CHECK-NEXT: // %2     stablehlo.add  18:3  tensor<8x16xf32>  -           -        -
// CHECK-NEXT: //
// CHECK-NEXT: // reshards: operands whose users want another sharding
// CHECK-NEXT: // user  at  operand  value  has  wants  collectives  bytes/device
// CHECK-NEXT: // stablehlo.add  18:3  0  %a  {{\[\[}}0, 1], []]  {{\[\[}}], [1]]  all_to_all grid_axes = [1] split_axis = 1 concat_axis = 0; all_gather grid_axes = [0] gather_axis = 0  192
// CHECK-NEXT: //
// CHECK-NEXT: // why: each resharding op's loop axes and the modeled time of its reshards,
// CHECK-NEXT: // next to the cheapest alternative its tensors' layouts suggest
// CHECK-NEXT: // op  at  loop axes  cost (us)  best alternative  its cost (us)
// CHECK-NEXT: // stablehlo.add  18:3  {{\[\[}}], [1]]  15.00  {{\[\[}}], []]  15.00
// CHECK-NEXT: //
// CHECK-NEXT: // constraints: what each asks, and the reshard it forced
// CHECK-NEXT: // at  value  asks  open dims  value had  forced  bytes/device
// CHECK-NEXT: // 17:3  %a  {{\[\[}}], [1]]  -  {{\[\[}}0, 1], []]  all_to_all grid_axes = [1] split_axis = 1 concat_axis = 0; all_gather grid_axes = [0] gather_axis = 0  192
// CHECK-NEXT: builtin.module {
// CHECK:        %s_rows = shard.sharding @grid4 split_axes = {{\[\[}}0, 1]] : !shard.sharding
// CHECK-NEXT:   %0 = shard.shard %a to %s_rows : tensor<8x16xf32>
// CHECK-NEXT:   %s_cols = shard.sharding @grid4 split_axes = {{\[\[}}], [1]] : !shard.sharding
// CHECK-NEXT:   %1 = shard.shard %0 to %s_cols annotate_for_users : tensor<8x16xf32>
// CHECK-NEXT:   %2 = stablehlo.add %1, %b : tensor<8x16xf32>
// CHECK-NEXT:   func.return %2 : tensor<8x16xf32>

// IR-NOT:   //
// IR:       %2 = stablehlo.add %1, %b : tensor<8x16xf32>
// FILE:     // sharding report for @chained
// FILE:     // stablehlo.add  18:3  0  %a  {{\[\[}}0, 1], []]  {{\[\[}}], [1]]
// FILE:     // sharding report for @agreed
// FILE:     // no reshards

// -----

shard.grid @grid2(shape = 2)

func.func @agreed(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @grid2 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %a to %s : tensor<8xf32>
  %1 = shard.shard %0 to %s annotate_for_users : tensor<8xf32>
  %2 = stablehlo.negate %1 : tensor<8xf32>
  func.return %2 : tensor<8xf32>
}
// CHECK:      // sharding report for @agreed
// CHECK-NEXT: // value  defined by        at    type           split axes  partial  annotation
// CHECK-NEXT: // %a     argument 0        -     tensor<8xf32>  {{\[\[}}0]]       -        input 61:3
// CHECK-NEXT: // %2     stablehlo.negate  63:3  tensor<8xf32>  -           -        -
// CHECK-NEXT: //
// CHECK-NEXT: // no reshards
// CHECK-NEXT: //
// CHECK-NEXT: // constraints: what each asks, and the reshard it forced
// CHECK-NEXT: // at    value  asks   open dims  value had  forced  bytes/device
// CHECK-NEXT: // 62:3  %a     {{\[\[}}0]]  -          {{\[\[}}0]]      -       -

// -----

shard.grid @grid2(shape = 2)

func.func @dynamic_halo(%a: tensor<8xf32>, %h: i64) -> tensor<8xf32> {
  %s = shard.sharding @grid2 split_axes = [[0]] halo_sizes = [%h, 1] : !shard.sharding
  %0 = shard.shard %a to %s : tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK: annotations.mlir:82:3: error: shardings with dynamic halo sizes or offsets are not supported here
