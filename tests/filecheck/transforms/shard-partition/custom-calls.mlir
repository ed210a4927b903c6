// RUN: xshard-opt %s -p 'sharding-propagation,shard-partition' | filecheck %s

// Custom calls xshard models. A linear algebra kernel's sdy.sharding_rule names a batch
// factor every tensor shares: split, it stays split and each device factors its own
// matrices (the rule, sized for the whole call, goes from the local one). A kernel with
// no batch, and a host callback, read whole values: their operands are gathered.

shard.grid @g(shape = 2)
func.func @batched_cholesky(%a: tensor<8x6x6xf32>) -> tensor<8x6x6xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x6x6xf32>
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a1) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i]) {i=8, j=6, k=6, l=6, m=6}, custom>} : (tensor<8x6x6xf32>) -> (tensor<8x6x6xf32>, tensor<8xi32>)
  func.return %0#0 : tensor<8x6x6xf32>
}
// CHECK-LABEL: func.func @batched_cholesky(%a: tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
// CHECK-NEXT:    %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {backend_config = "", output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}} : (tensor<4x6x6xf32>) -> (tensor<4x6x6xf32>, tensor<4xi32>)
// CHECK-NEXT:    func.return %0#0 : tensor<4x6x6xf32>

func.func @rows_gathered(%a: tensor<6x6xf32>) -> tensor<6x6xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<6x6xf32>
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a1) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], []) {i=6, j=6, k=6, l=6}, custom>} : (tensor<6x6xf32>) -> (tensor<6x6xf32>, tensor<i32>)
  func.return %0#0 : tensor<6x6xf32>
}
// CHECK-LABEL: func.func @rows_gathered(%a: tensor<3x6xf32>) -> tensor<6x6xf32>
// CHECK-NEXT:    %0 = shard.all_gather %a on @g grid_axes = [0] gather_axis = 0 : tensor<3x6xf32> -> tensor<6x6xf32>
// CHECK-NEXT:    %1:2 = stablehlo.custom_call @lapack_spotrf_ffi(%0)

func.func @callback(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8xf32>
  %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%a1) {backend_config = "", mhlo.backend_config = {index = 0 : ui64}} : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK-LABEL: func.func @callback(%a: tensor<4xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %0 = shard.all_gather %a on @g grid_axes = [0] gather_axis = 0 : tensor<4xf32> -> tensor<8xf32>
// CHECK-NEXT:    %1 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%0) {backend_config = "", mhlo.backend_config = {index = 0 : ui64}} : (tensor<8xf32>) -> tensor<8xf32>
