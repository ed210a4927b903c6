// RUN: XSHARD_ROUNDTRIP
// RUN: XSHARD_GENERIC_ROUNDTRIP

// xshard's extension: partial axes on `shard.sharding` (upstream's pre-2025 syntax).
// `partial = KIND [axes]` says each device along those grid axes holds one operand
// of a KIND-reduction that gives the true value. Its verifier cases are in invalid.mlir.

shard.grid @grid(shape = 2x4x8)

// CHECK:      %s0 = shard.sharding @grid split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT: %s1 = shard.sharding @grid split_axes = {{\[\[}}], [0]] partial = max [2, 1] : !shard.sharding
// CHECK-NEXT: %s2 = shard.sharding @grid split_axes = {{\[\[}}]] partial = bitwise_xor [0, 1, 2] : !shard.sharding
// CHECK-NEXT: %s3 = shard.sharding @grid split_axes = {{\[\[}}0]] partial = min [1] halo_sizes = [1, 2] : !shard.sharding
// CHECK-NEXT: %s4 = shard.sharding @grid split_axes = {{\[\[}}1]] partial = generic [0] sharded_dims_offsets = [0, 1, 2, 3, 4] : !shard.sharding
// CHECK-NEXT: %s5 = shard.sharding @grid split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-GENERIC: "shard.sharding"() <{grid = @grid, split_axes = #shard<axisarray{{\[\[}}0]]>, partial_type = #shard<partial sum>, partial_axes = array<i16: 1>, static_halo_sizes = array<i64>, static_sharded_dims_offsets = array<i64>, operandSegmentSizes = array<i32: 0, 0>}> : () -> !shard.sharding
// CHECK-GENERIC: "shard.sharding"() <{grid = @grid, split_axes = #shard<axisarray{{\[\[}}], [0]]>, partial_type = #shard<partial max>, partial_axes = array<i16: 2, 1>,
// Without partial axes neither property is stored, so mlir-opt reads the module.
// CHECK-GENERIC: %s5 = "shard.sharding"() <{grid = @grid, split_axes = #shard<axisarray{{\[\[}}0]]>, static_halo_sizes = array<i64>, static_sharded_dims_offsets = array<i64>, operandSegmentSizes = array<i32: 0, 0>}> : () -> !shard.sharding
%s0 = shard.sharding @grid split_axes = [[0]] partial = sum [1] : !shard.sharding
%s1 = shard.sharding @grid split_axes = [[], [0]] partial = max [2, 1] : !shard.sharding
%s2 = shard.sharding @grid split_axes = [[]] partial = bitwise_xor [0, 1, 2] : !shard.sharding
%s3 = shard.sharding @grid split_axes = [[0]] partial = min [1] halo_sizes = [1, 2] : !shard.sharding
%s4 = shard.sharding @grid split_axes = [[1]] partial = generic [0] sharded_dims_offsets = [0, 1, 2, 3, 4] : !shard.sharding
%s5 = shard.sharding @grid split_axes = [[0]] : !shard.sharding
