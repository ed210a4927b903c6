// RUN: XSHARD_ROUNDTRIP
// RUN: XSHARD_GENERIC_ROUNDTRIP

// Every op of xshard's StableHLO subset, in the pretty form JAX prints: it must print
// back the same after a trip through the generic form. CHECK-GENERIC pins the property
// names and spellings of the generic form (those upstream StableHLO and XLA read).

func.func @nullary() -> (tensor<2xf32>, tensor<f32>, tensor<4x8xi32>, tensor<ui32>, tensor<ui32>) {
  %c = stablehlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %i = stablehlo.iota dim = 1 : tensor<4x8xi32>
  %p = stablehlo.partition_id : tensor<ui32>
  %r = stablehlo.replica_id : tensor<ui32>
  func.return %c, %ninf, %i, %p, %r : tensor<2xf32>, tensor<f32>, tensor<4x8xi32>, tensor<ui32>, tensor<ui32>
}
// CHECK-LABEL: func.func @nullary
// CHECK-NEXT:  %c = stablehlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:  %ninf = stablehlo.constant dense<0xff800000> : tensor<f32>
// CHECK-NEXT:  %i = stablehlo.iota dim = 1 : tensor<4x8xi32>
// CHECK-NEXT:  %p = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT:  %r = stablehlo.replica_id : tensor<ui32>
// CHECK-GENERIC: "stablehlo.constant"() <{value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}> : () -> tensor<2xf32>
// CHECK-GENERIC: "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x8xi32>
// CHECK-GENERIC: "stablehlo.partition_id"() : () -> tensor<ui32>

func.func @unary(%x: tensor<4xf32>, %b: tensor<4xi1>, %n: tensor<4xi32>) {
  %0 = stablehlo.abs %x : tensor<4xf32>
  %1 = stablehlo.negate %x : tensor<4xf32>
  %2 = stablehlo.sign %x : tensor<4xf32>
  %3 = stablehlo.not %b : tensor<4xi1>
  %4 = stablehlo.exponential %x : tensor<4xf32>
  %5 = stablehlo.exponential_minus_one %x : tensor<4xf32>
  %6 = stablehlo.log %x : tensor<4xf32>
  %7 = stablehlo.log_plus_one %x : tensor<4xf32>
  %8 = stablehlo.tanh %x : tensor<4xf32>
  %9 = stablehlo.logistic %x : tensor<4xf32>
  %10 = stablehlo.sqrt %x : tensor<4xf32>
  %11 = stablehlo.rsqrt %x : tensor<4xf32>
  %12 = stablehlo.sine %x : tensor<4xf32>
  %13 = stablehlo.cosine %x : tensor<4xf32>
  %14 = stablehlo.floor %x : tensor<4xf32>
  %15 = stablehlo.ceil %x : tensor<4xf32>
  %16 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xbf16>
  %17 = stablehlo.convert %x : tensor<4xf32>
  %18 = stablehlo.abs %n {mhlo.sharding = "{replicated}"} : tensor<4xi32>
  %19 = stablehlo.popcnt %n : tensor<4xi32>
  %20 = stablehlo.count_leading_zeros %n : tensor<4xi32>
  func.return
}
// CHECK-LABEL: func.func @unary
// CHECK-NEXT:  %0 = stablehlo.abs %x : tensor<4xf32>
// CHECK-NEXT:  %1 = stablehlo.negate %x : tensor<4xf32>
// CHECK-NEXT:  %2 = stablehlo.sign %x : tensor<4xf32>
// CHECK-NEXT:  %3 = stablehlo.not %b : tensor<4xi1>
// CHECK-NEXT:  %4 = stablehlo.exponential %x : tensor<4xf32>
// CHECK-NEXT:  %5 = stablehlo.exponential_minus_one %x : tensor<4xf32>
// CHECK-NEXT:  %6 = stablehlo.log %x : tensor<4xf32>
// CHECK-NEXT:  %7 = stablehlo.log_plus_one %x : tensor<4xf32>
// CHECK-NEXT:  %8 = stablehlo.tanh %x : tensor<4xf32>
// CHECK-NEXT:  %9 = stablehlo.logistic %x : tensor<4xf32>
// CHECK-NEXT:  %10 = stablehlo.sqrt %x : tensor<4xf32>
// CHECK-NEXT:  %11 = stablehlo.rsqrt %x : tensor<4xf32>
// CHECK-NEXT:  %12 = stablehlo.sine %x : tensor<4xf32>
// CHECK-NEXT:  %13 = stablehlo.cosine %x : tensor<4xf32>
// CHECK-NEXT:  %14 = stablehlo.floor %x : tensor<4xf32>
// CHECK-NEXT:  %15 = stablehlo.ceil %x : tensor<4xf32>
// CHECK-NEXT:  %16 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK-NEXT:  %17 = stablehlo.convert %x : tensor<4xf32>
// CHECK-NEXT:  %18 = stablehlo.abs %n {mhlo.sharding = "{replicated}"} : tensor<4xi32>
// CHECK-NEXT:  %19 = stablehlo.popcnt %n : tensor<4xi32>
// CHECK-NEXT:  %20 = stablehlo.count_leading_zeros %n : tensor<4xi32>
// CHECK-GENERIC: "stablehlo.convert"(%x) : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK-GENERIC: "stablehlo.abs"(%n) {mhlo.sharding = "{replicated}"} : (tensor<4xi32>) -> tensor<4xi32>

func.func @binary(%x: tensor<4xf32>, %y: tensor<4xf32>, %a: tensor<4xi1>, %b: tensor<4xi1>) {
  %0 = stablehlo.add %x, %y : tensor<4xf32>
  %1 = stablehlo.subtract %x, %y : tensor<4xf32>
  %2 = stablehlo.multiply %x, %y : tensor<4xf32>
  %3 = stablehlo.divide %x, %y : tensor<4xf32>
  %4 = stablehlo.remainder %x, %y : tensor<4xf32>
  %5 = stablehlo.maximum %x, %y : tensor<4xf32>
  %6 = stablehlo.minimum %x, %y : tensor<4xf32>
  %7 = stablehlo.power %x, %y : tensor<4xf32>
  %8 = stablehlo.and %a, %b : tensor<4xi1>
  %9 = stablehlo.or %a, %b : tensor<4xi1>
  %10 = stablehlo.xor %a, %b : tensor<4xi1>
  %11 = stablehlo.atan2 %x, %y : tensor<4xf32>
  func.return
}
// CHECK-LABEL: func.func @binary
// CHECK-NEXT:  %0 = stablehlo.add %x, %y : tensor<4xf32>
// CHECK-NEXT:  %1 = stablehlo.subtract %x, %y : tensor<4xf32>
// CHECK-NEXT:  %2 = stablehlo.multiply %x, %y : tensor<4xf32>
// CHECK-NEXT:  %3 = stablehlo.divide %x, %y : tensor<4xf32>
// CHECK-NEXT:  %4 = stablehlo.remainder %x, %y : tensor<4xf32>
// CHECK-NEXT:  %5 = stablehlo.maximum %x, %y : tensor<4xf32>
// CHECK-NEXT:  %6 = stablehlo.minimum %x, %y : tensor<4xf32>
// CHECK-NEXT:  %7 = stablehlo.power %x, %y : tensor<4xf32>
// CHECK-NEXT:  %8 = stablehlo.and %a, %b : tensor<4xi1>
// CHECK-NEXT:  %9 = stablehlo.or %a, %b : tensor<4xi1>
// CHECK-NEXT:  %10 = stablehlo.xor %a, %b : tensor<4xi1>
// CHECK-NEXT:  %11 = stablehlo.atan2 %x, %y : tensor<4xf32>
// CHECK-GENERIC: "stablehlo.add"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>

func.func @compare_select_clamp(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: tensor<i32>, %s: tensor<f32>) {
  %0 = stablehlo.compare  GT, %x, %y,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.compare LT, %i, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %2 = stablehlo.select %0, %x, %y : tensor<4xi1>, tensor<4xf32>
  %3 = stablehlo.select %1, %x, %y : tensor<i1>, tensor<4xf32>
  %4 = stablehlo.clamp %x, %y, %x : tensor<4xf32>
  %5 = stablehlo.clamp %s, %x, %s : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  func.return
}
// CHECK-LABEL: func.func @compare_select_clamp
// CHECK-NEXT:  %0 = stablehlo.compare GT, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:  %1 = stablehlo.compare LT, %i, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:  %2 = stablehlo.select %0, %x, %y : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT:  %3 = stablehlo.select %1, %x, %y : tensor<i1>, tensor<4xf32>
// CHECK-NEXT:  %4 = stablehlo.clamp %x, %y, %x : tensor<4xf32>
// CHECK-NEXT:  %5 = stablehlo.clamp %s, %x, %s : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-GENERIC: "stablehlo.compare"(%x, %y) <{comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type FLOAT>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-GENERIC: "stablehlo.compare"(%i, %i) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>

func.func @data_movement(%x: tensor<4x8xf32>, %v: tensor<16xf32>, %k: tensor<i32>, %u: tensor<2x4xf32>, %z: tensor<f32>) {
  %0 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<16xf32>) -> tensor<2x16xf32>
  %1 = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %2 = stablehlo.reshape %x : (tensor<4x8xf32>) -> tensor<2x2x8xf32>
  %3 = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %4 = stablehlo.slice %x [1:3, 0:8:2] : (tensor<4x8xf32>) -> tensor<2x4xf32>
  %5 = stablehlo.dynamic_slice %x, %k, %k, sizes = [2, 4] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
  %6 = stablehlo.dynamic_update_slice %x, %u, %k, %k : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  %7 = stablehlo.concatenate %x, %x, dim = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  %8 = stablehlo.pad %x, %z, low = [1, 0], high = [2, 1], interior = [1, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<10x9xf32>
  func.return
}
// CHECK-LABEL: func.func @data_movement
// CHECK-NEXT:  %0 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT:  %1 = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %2 = stablehlo.reshape %x : (tensor<4x8xf32>) -> tensor<2x2x8xf32>
// CHECK-NEXT:  %3 = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:  %4 = stablehlo.slice %x [1:3, 0:8:2] : (tensor<4x8xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:  %5 = stablehlo.dynamic_slice %x, %k, %k, sizes = [2, 4] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:  %6 = stablehlo.dynamic_update_slice %x, %u, %k, %k : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %7 = stablehlo.concatenate %x, %x, dim = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %8 = stablehlo.pad %x, %z, low = [1, 0], high = [2, 1], interior = [1, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<10x9xf32>
// CHECK-GENERIC: "stablehlo.broadcast_in_dim"(%v) <{broadcast_dimensions = array<i64: 1>}>
// CHECK-GENERIC: "stablehlo.transpose"(%x) <{permutation = array<i64: 1, 0>}>
// CHECK-GENERIC: "stablehlo.slice"(%x) <{start_indices = array<i64: 1, 0>, limit_indices = array<i64: 3, 8>, strides = array<i64: 1, 2>}>
// CHECK-GENERIC: "stablehlo.dynamic_slice"(%x, %k, %k) <{slice_sizes = array<i64: 2, 4>}>
// CHECK-GENERIC: "stablehlo.concatenate"(%x, %x) <{dimension = 1 : i64}>
// CHECK-GENERIC: "stablehlo.pad"(%x, %z) <{edge_padding_low = array<i64: 1, 0>, edge_padding_high = array<i64: 2, 1>, interior_padding = array<i64: 1, 0>}>

func.func @dot_general(%a: tensor<2x8xf32>, %b: tensor<8x16xf32>, %c: tensor<2x2x8xf32>, %d: tensor<2x8x2xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
  %1 = stablehlo.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x8xf32>, tensor<2x8x2xf32>) -> tensor<2x2x2xf32>
  %2 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [HIGHEST, HIGH] : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
  func.return
}
// CHECK-LABEL: func.func @dot_general
// CHECK-NEXT:  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT:  %1 = stablehlo.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x8xf32>, tensor<2x8x2xf32>) -> tensor<2x2x2xf32>
// CHECK-NEXT:  %2 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [HIGHEST, HIGH] : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
// CHECK-GENERIC: "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}>
// CHECK-GENERIC: #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>

func.func @reduce(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %z: tensor<f32>, %c: tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) {
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %1:2 = stablehlo.reduce(%x init: %z), (%i init: %c) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%j: tensor<i32>, %k: tensor<i32>)  {
    %2 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.select %2, %a, %b : tensor<i1>, tensor<f32>
    %4 = stablehlo.select %2, %j, %k : tensor<i1>, tensor<i32>
    stablehlo.return %3, %4 : tensor<f32>, tensor<i32>
  }
  func.return %0, %1#0, %1#1 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
}
// CHECK-LABEL: func.func @reduce
// CHECK-NEXT:  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:  %1:2 = stablehlo.reduce(%x init: %z), (%i init: %c) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
// CHECK-NEXT:  reducer(%a: tensor<f32>, %b: tensor<f32>) (%j: tensor<i32>, %k: tensor<i32>)  {
// CHECK-NEXT:    %2 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK:         stablehlo.return %3, %4 : tensor<f32>, tensor<i32>
// CHECK-NEXT:  }
// CHECK-GENERIC:      "stablehlo.reduce"(%x, %z) <{dimensions = array<i64: 1>}> ({
// CHECK-GENERIC-NEXT: ^bb0(%[[LHS:.*]]: tensor<f32>, %[[RHS:.*]]: tensor<f32>):
// CHECK-GENERIC-NEXT:   %[[SUM:.*]] = "stablehlo.add"(%[[LHS]], %[[RHS]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-GENERIC-NEXT:   "stablehlo.return"(%[[SUM]]) : (tensor<f32>) -> ()
// CHECK-GENERIC-NEXT: }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>

func.func @custom_call(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @Sharding(%x) {backend_config = "", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  stablehlo.custom_call @check.expect_eq(%0, %x) {has_side_effect = true} : (tensor<8x16xf32>, tensor<8x16xf32>) -> ()
  func.return %0 : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @custom_call
// CHECK-NEXT:  %0 = stablehlo.custom_call @Sharding(%x) {backend_config = "", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:  stablehlo.custom_call @check.expect_eq(%0, %x) {has_side_effect = true} : (tensor<8x16xf32>, tensor<8x16xf32>) -> ()
// CHECK-GENERIC: "stablehlo.custom_call"(%x) <{call_target_name = "Sharding", backend_config = ""}> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}

// jax.debug.inspect_array_sharding's call: a backend_config of bytes that are not UTF-8.
func.func @bytes_config(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @InspectSharding(%x) {backend_config = "\10\05j\E4\E9\7F\00\00", has_side_effect = true} : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK-LABEL: func.func @bytes_config
// CHECK-NEXT:  %0 = stablehlo.custom_call @InspectSharding(%x) {backend_config = "\10\05j\E4\E9\7F\00\00", has_side_effect = true} : (tensor<8xf32>) -> tensor<8xf32>

// A LAPACK kernel as JAX prints it: in place (output_operand_aliases), with the sharding
// rule Shardy would use (sdy.op_sharding_rule).
func.func @lapack_call(%a: tensor<8x6x6xf32>) -> tensor<8x6x6xf32> {
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i]) {i=8, j=6, k=6, l=6, m=6}, custom>} : (tensor<8x6x6xf32>) -> (tensor<8x6x6xf32>, tensor<8xi32>)
  func.return %0#0 : tensor<8x6x6xf32>
}
// CHECK-LABEL: func.func @lapack_call
// CHECK-NEXT:  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {backend_config = "", operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i]) {i=8, j=6, k=6, l=6, m=6}, custom>} : (tensor<8x6x6xf32>) -> (tensor<8x6x6xf32>, tensor<8xi32>)

func.func @fft(%x: tensor<4x8x16xf32>, %z: tensor<4x8x16xcomplex<f32>>) {
  %0 = stablehlo.fft %x, type = RFFT, length = [16] : (tensor<4x8x16xf32>) -> tensor<4x8x9xcomplex<f32>>
  %1 = stablehlo.fft %0, type = IRFFT, length = [16] : (tensor<4x8x9xcomplex<f32>>) -> tensor<4x8x16xf32>
  %2 = stablehlo.fft %z, type = FFT, length = [8, 16] {tag = 1 : i32} : (tensor<4x8x16xcomplex<f32>>) -> tensor<4x8x16xcomplex<f32>>
  %3 = stablehlo.fft %2, type = IFFT, length = [16] : (tensor<4x8x16xcomplex<f32>>) -> tensor<4x8x16xcomplex<f32>>
  func.return
}
// CHECK-LABEL: func.func @fft
// CHECK-NEXT:  %0 = stablehlo.fft %x, type = RFFT, length = [16] : (tensor<4x8x16xf32>) -> tensor<4x8x9xcomplex<f32>>
// CHECK-NEXT:  %1 = stablehlo.fft %0, type = IRFFT, length = [16] : (tensor<4x8x9xcomplex<f32>>) -> tensor<4x8x16xf32>
// CHECK-NEXT:  %2 = stablehlo.fft %z, type = FFT, length = [8, 16] {tag = 1 : i32} : (tensor<4x8x16xcomplex<f32>>) -> tensor<4x8x16xcomplex<f32>>
// CHECK-NEXT:  %3 = stablehlo.fft %2, type = IFFT, length = [16] : (tensor<4x8x16xcomplex<f32>>) -> tensor<4x8x16xcomplex<f32>>
// CHECK-GENERIC: "stablehlo.fft"(%x) <{fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 16>}> : (tensor<4x8x16xf32>) -> tensor<4x8x9xcomplex<f32>>

func.func @triangular_solve(%a: tensor<4x16x16xf32>, %b: tensor<4x16x2xf32>, %c: tensor<4x2x16xf32>) {
  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<4x16x16xf32>, tensor<4x16x2xf32>) -> tensor<4x16x2xf32>
  %1 = "stablehlo.triangular_solve"(%a, %c) <{left_side = false, lower = false, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = true}> : (tensor<4x16x16xf32>, tensor<4x2x16xf32>) -> tensor<4x2x16xf32>
  func.return
}
// CHECK-LABEL: func.func @triangular_solve
// CHECK-NEXT:  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<4x16x16xf32>, tensor<4x16x2xf32>) -> tensor<4x16x2xf32>
// CHECK-NEXT:  %1 = "stablehlo.triangular_solve"(%a, %c) <{left_side = false, lower = false, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = true}> : (tensor<4x16x16xf32>, tensor<4x2x16xf32>) -> tensor<4x2x16xf32>

func.func @rng_bit_generator(%s: tensor<2xui64>) -> tensor<8x16xui32> {
  %output_state, %output = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)
  %a, %b = stablehlo.rng_bit_generator %output_state, algorithm = PHILOX {tag = 1 : i32} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)
  func.return %b : tensor<8x16xui32>
}
// CHECK-LABEL: func.func @rng_bit_generator
// CHECK-NEXT:  %output_state, %output = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)
// CHECK-NEXT:  %a, %b = stablehlo.rng_bit_generator %output_state, algorithm = PHILOX {tag = 1 : i32} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)
// CHECK-GENERIC: "stablehlo.rng_bit_generator"(%s) <{rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)

// -----

// Collectives exist in generic form only, as JAX prints them.
builtin.module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @collectives(%x: tensor<4x4xf32>, %w: tensor<16x4xf32>) {
    %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<4x4xf32>) -> tensor<4x16xf32>
    %2 = "stablehlo.reduce_scatter"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
    }) : (tensor<4x16xf32>) -> tensor<4x4xf32>
    %3 = "stablehlo.all_to_all"(%w) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<16x4xf32>) -> tensor<4x16xf32>
    %4 = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4]]> : tensor<8x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %5 = "stablehlo.collective_broadcast"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[2, 0, 1, 3], [6, 4, 5, 7]]> : tensor<2x4xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    func.return
  }
}
// CHECK-LABEL: func.func @collectives
// CHECK:       %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
// CHECK-NEXT:  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:    %s = stablehlo.add %a, %b : tensor<f32>
// CHECK-NEXT:    stablehlo.return %s : tensor<f32>
// CHECK-NEXT:  }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:  %1 = "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<4x4xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %2 = "stablehlo.reduce_scatter"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
// CHECK:       %3 = "stablehlo.all_to_all"(%w) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<16x4xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %4 = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4]]> : tensor<8x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:  %5 = "stablehlo.collective_broadcast"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}2, 0, 1, 3], [6, 4, 5, 7]]> : tensor<2x4xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-GENERIC: "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
