// RUN: xshard-opt %s --split-input-file --verify-diagnostics | filecheck %s

// One verifier rule per chunk; only the first error of a chunk is reported.

// --- tcp.broadcast: exactly the RFC's size-1 broadcasting ---

%x, %n = "test.op"() : () -> (tensor<?xf32>, index)
%0 = tcp.broadcast %x, %n {axes = [0]} : tensor<?xf32>, index -> tensor<?x?xf32>
// CHECK: invalid.mlir:8:1: error: 'tcp.broadcast' op failed to verify that all of {in, out} have same rank (tcp.broadcast never changes the rank; use tensor.expand_shape first), but got tensor<?xf32> and tensor<?x?xf32>

// -----

%x, %m, %n = "test.op"() : () -> (tensor<1x1xf32>, index, index)
%0 = tcp.broadcast %x, %m, %n {axes = [1, 0]} : tensor<1x1xf32>, index, index -> tensor<?x?xf32>
// CHECK: error: 'tcp.broadcast' op failed to verify that attribute `axes` must be in increasing order

// -----

%x, %m, %n = "test.op"() : () -> (tensor<1x1xf32>, index, index)
%0 = tcp.broadcast %x, %m, %n {axes = [0, 0]} : tensor<1x1xf32>, index, index -> tensor<?x1xf32>
// CHECK: error: 'tcp.broadcast' op failed to verify that attribute `axes` must not have any duplicates

// -----

%x, %n = "test.op"() : () -> (tensor<1x4xf32>, index)
%0 = tcp.broadcast %x, %n {axes = [2]} : tensor<1x4xf32>, index -> tensor<1x4xf32>
// CHECK: error: 'tcp.broadcast' op failed to verify that attribute `axes` are in bounds

// -----

%x, %n = "test.op"() : () -> (tensor<1x4xf32>, index)
%0 = tcp.broadcast %x, %n {axes = [-1]} : tensor<1x4xf32>, index -> tensor<1x4xf32>
// CHECK: error: 'tcp.broadcast' op failed to verify that attribute `axes` are in bounds

// -----

%x, %n = "test.op"() : () -> (tensor<2x4xf32>, index)
%0 = tcp.broadcast %x, %n {axes = [0]} : tensor<2x4xf32>, index -> tensor<6x4xf32>
// CHECK: error: 'tcp.broadcast' op failed to verify that dimensions listed in attribute `axes` have a static size of `1`

// -----

%x, %n = "test.op"() : () -> (tensor<?x4xf32>, index)
%0 = tcp.broadcast %x, %n {axes = [0]} : tensor<?x4xf32>, index -> tensor<?x4xf32>
// CHECK: error: 'tcp.broadcast' op failed to verify that dimensions listed in attribute `axes` have a static size of `1`

// -----

%x, %m, %n = "test.op"() : () -> (tensor<1x1xf32>, index, index)
%0 = tcp.broadcast %x, %m, %n {axes = [0]} : tensor<1x1xf32>, index, index -> tensor<?x1xf32>
// CHECK: error: 'tcp.broadcast' op failed to verify that argument `new_dim_sizes` has the same size as the attribute `axes`

// -----

%x = "test.op"() : () -> tensor<1x1xf32>
%0 = tcp.broadcast %x, {axes = [0]} : tensor<1x1xf32>, -> tensor<?x1xf32>
// CHECK: error: 'tcp.broadcast' op failed to verify that argument `new_dim_sizes` has the same size as the attribute `axes`

// -----

%x, %n = "test.op"() : () -> (tensor<1x4xf32>, index)
%0 = tcp.broadcast %x, %n {axes = [0]} : tensor<1x4xf32>, index -> tensor<3x4xf16>
// CHECK: error: 'tcp.broadcast' op failed to verify that all of {in, out} have same element type, but got tensor<1x4xf32> and tensor<3x4xf16>

// -----

%x, %n = "test.op"() : () -> (tensor<1x4xf32>, index)
%0 = tcp.broadcast %x, %n {axes = [0]} : tensor<1x4xf32>, index -> tensor<3x8xf32>
// CHECK: error: 'tcp.broadcast' op dimension 1 is not listed in `axes`, so its size must not change, but got tensor<1x4xf32> and tensor<3x8xf32>

// -----

// --- elementwise ops ---

%a, %b = "test.op"() : () -> (tensor<4xf32>, tensor<1xf32>)
%0 = tcp.add %a, %b : tensor<4xf32>, tensor<1xf32> -> tensor<4xf32>
// CHECK: error: 'tcp.add' op requires the same shape for all operands and results (TCP does not broadcast implicitly), but got tensor<1xf32> and tensor<4xf32>

// -----

%a, %b = "test.op"() : () -> (tensor<4xf32>, tensor<4xi32>)
%0 = tcp.mul %a, %b : tensor<4xf32>, tensor<4xi32> -> tensor<4xf32>
// CHECK: error: 'tcp.mul' op requires the same element type for all operands and results, but got tensor<4xi32> and tensor<4xf32>

// -----

%a = "test.op"() : () -> tensor<4xi32>
%0 = tcp.tanh %a : tensor<4xi32> -> tensor<4xi32>
// CHECK: error: 'tcp.tanh' op result must be a ranked tensor of float values, but got tensor<4xi32>

// -----

%a = "test.op"() : () -> tensor<4xf32>
%0 = tcp.sqrt %a : tensor<4xf32> -> tensor<?x4xf32>
// CHECK: error: 'tcp.sqrt' op requires the same shape for all operands and results (TCP does not broadcast implicitly), but got tensor<4xf32> and tensor<?x4xf32>

// -----

%a = "test.op"() : () -> tensor<4xsi32>
%0 = tcp.abs %a : tensor<4xsi32> -> tensor<4xsi32>
// CHECK: error: 'tcp.abs' op result must be a ranked tensor of float or signless integer values, but got tensor<4xsi32>

// -----

%a = "test.op"() : () -> tensor<4xi32>
%0 = tcp.divf %a, %a : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
// CHECK: error: 'tcp.divf' op result must be a ranked tensor of float values, but got tensor<4xi32>

// -----

%a = "test.op"() : () -> tensor<4xf32>
%0 = tcp.divsi %a, %a {rounding_mode = #tcp<roundingMode Trunc>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK: error: 'tcp.divsi' op result must be a ranked tensor of signless integer values, but got tensor<4xf32>

// -----

%a = "test.op"() : () -> tensor<4xi32>
%0 = tcp.divui %a, %a : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
// CHECK: error: property 'rounding_mode' expected in operation 'tcp.divui'

// -----

// --- tcp.clamp ---

%a = "test.op"() : () -> tensor<4xf32>
%0 = tcp.clamp %a : tensor<4xf32> -> tensor<4xf32>
// CHECK: error: 'tcp.clamp' op failed to verify that at least one of min / max attributes must be set

// -----

%a = "test.op"() : () -> tensor<4xf32>
%0 = tcp.clamp %a {min_int = 0 : i64} : tensor<4xf32> -> tensor<4xf32>
// CHECK: error: 'tcp.clamp' op failed to verify that int min / max attributes must not be set when input is a float tensor

// -----

%a = "test.op"() : () -> tensor<4xi32>
%0 = tcp.clamp %a {max_float = 1.0 : f32} : tensor<4xi32> -> tensor<4xi32>
// CHECK: error: 'tcp.clamp' op failed to verify that float min / max attributes must not be set when input is an int tensor

// -----

// --- tcp.const ---

%0 = tcp.const {value = dense<1.0> : tensor<2xf32>} : tensor<3xf32>
// CHECK: error: 'tcp.const' op value type tensor<2xf32> does not match result type tensor<3xf32>

// -----

// --- tcp.cast ---

%a = "test.op"() : () -> tensor<4xi32>
%0 = tcp.cast %a : tensor<4xi32> -> tensor<4xf32>
// CHECK: error: 'tcp.cast' op in_int_signedness attr must be set when input is INT

// -----

%a = "test.op"() : () -> tensor<4xf32>
%0 = tcp.cast %a {in_int_signedness = #tcp<signedness Signed>} : tensor<4xf32> -> tensor<4xf16>
// CHECK: error: 'tcp.cast' op in_int_signedness attr should not set when input is FP

// -----

%a = "test.op"() : () -> tensor<4xf32>
%0 = tcp.cast %a : tensor<4xf32> -> tensor<4xi32>
// CHECK: error: 'tcp.cast' op out_int_signedness attr must be set when output is INT

// -----

%a = "test.op"() : () -> tensor<4xi32>
%0 = tcp.cast %a {in_int_signedness = #tcp<signedness Signed>, out_int_signedness = #tcp<signedness Signed>} : tensor<4xi32> -> tensor<4xf32>
// CHECK: error: 'tcp.cast' op out_int_signedness attr should not set when output is FP

// -----

%a = "test.op"() : () -> tensor<4xi1>
%0 = tcp.cast %a {in_int_signedness = #tcp<signedness Signed>} : tensor<4xi1> -> tensor<4xf32>
// CHECK: error: 'tcp.cast' op in_int_signedness attr must be set to Signedness::Signless when input is i1

// -----

%a = "test.op"() : () -> tensor<4xf32>
%0 = tcp.cast %a : tensor<4xf32> -> tensor<5xf16>
// CHECK: error: 'tcp.cast' op requires the same shape for operand and result, but got tensor<4xf32> and tensor<5xf16>

// -----

// --- tcp.slice ---

%a, %c = "test.op"() : () -> (tensor<4x4xf32>, index)
%0 = tcp.slice %a starts(%c) sizes(%c) strides(%c) : tensor<4x4xf32> -> tensor<2x2xf32>
// CHECK: error: 'tcp.slice' op expects one start, size and stride per dimension (2), but got 1

// -----

%a, %c = "test.op"() : () -> (tensor<4xf32>, index)
%0 = tcp.slice %a starts(%c) sizes(%c) strides(%c) : tensor<4xf32> -> tensor<2x1xf32>
// CHECK: error: 'tcp.slice' op requires the same element type and rank for operand and result, but got tensor<4xf32> and tensor<2x1xf32>

// -----

// --- tcp.gather ---

%a, %i = "test.op"() : () -> (tensor<4x3xf32>, tensor<2xi64>)
%0 = tcp.gather %a, %i {dim = 0 : index} : tensor<4x3xf32>, tensor<2xi64> -> tensor<2xf32>
// CHECK: error: 'tcp.gather' op tcp.gather requires that the input tensor and indices are the same rank

// -----

%a, %i = "test.op"() : () -> (tensor<4x3xf32>, tensor<2x3xi64>)
%0 = tcp.gather %a, %i {dim = 2 : index} : tensor<4x3xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
// CHECK: error: 'tcp.gather' op gather dimension 2 is out of bounds for tensor<4x3xf32>

// -----

%a, %i = "test.op"() : () -> (tensor<4x3xf32>, tensor<2x5xi64>)
%0 = tcp.gather %a, %i {dim = 0 : index} : tensor<4x3xf32>, tensor<2x5xi64> -> tensor<2x5xf32>
// CHECK: error: 'tcp.gather' op indices tensor does not match expected shape

// -----

%a, %i = "test.op"() : () -> (tensor<4x3xf32>, tensor<2x3xi64>)
%0 = tcp.gather %a, %i {dim = 0 : index} : tensor<4x3xf32>, tensor<2x3xi64> -> tensor<4x3xf32>
// CHECK: error: 'tcp.gather' op Expect the shape of the indicies to match the output shape

// -----

%a, %i = "test.op"() : () -> (tensor<4x3xf32>, tensor<2x3xf32>)
%0 = tcp.gather %a, %i {dim = 0 : index} : tensor<4x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK: error: 'tcp.gather' op operand #1 must be a ranked tensor of signless integer values, but got tensor<2x3xf32>

// -----

// --- groups ---

%a = "test.op"() : () -> tensor<4xf32>
%0 = tcp.group {
  tcp.yield %a, %a : tensor<4xf32>, tensor<4xf32>
} : tensor<4xf32>
// CHECK: error: 'tcp.group' op failed to verify that the number of yielded values is same as the number of results

// -----

%a = "test.op"() : () -> tensor<4xf32>
%0 = tcp.group {
  tcp.yield %a : tensor<4xf32>
} : tensor<4xf16>
// CHECK: error: 'tcp.group' op failed to verify that the type of operand #0 of terminator matches the corresponding result type

// -----

%a = "test.op"() : () -> tensor<4xf32>
%0 = tcp.isolated_group %a {
^bb0(%p: tensor<4xf32>):
  %s = tcp.add %p, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  tcp.yield %s : tensor<4xf32>
} : tensor<4xf32> -> tensor<4xf32>
// CHECK: error: Operation using value defined out of its IsolatedFromAbove parent

// -----

%a = "test.op"() : () -> tensor<4xf32>
%0 = tcp.isolated_group %a {
^bb0(%p: tensor<4xi32>):
  tcp.yield %p : tensor<4xi32>
} : tensor<4xf32> -> tensor<4xi32>
// CHECK: error: 'tcp.isolated_group' op block argument types (tensor<4xi32>) must match the input types (tensor<4xf32>)

// -----

%a = "test.op"() : () -> tensor<4xf32>
"tcp.yield"(%a) : (tensor<4xf32>) -> ()
// CHECK: error: 'tcp.yield' expects parent op to be one of 'tcp.group', 'tcp.isolated_group'

// -----

// --- tcp.matmul ---

%a, %b = "test.op"() : () -> (tensor<4xf32>, tensor<4xf32>)
%0 = tcp.matmul %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK: error: 'tcp.matmul' op requires operands and result of one rank >= 2 (batch dims, then rows and columns), but got tensor<4xf32>, tensor<4xf32> and tensor<4xf32>

// -----

%a, %b = "test.op"() : () -> (tensor<2x8x4xf32>, tensor<3x4x5xf32>)
%0 = tcp.matmul %a, %b : tensor<2x8x4xf32>, tensor<3x4x5xf32> -> tensor<2x8x5xf32>
// CHECK: error: 'tcp.matmul' op batch dimensions of tensor<2x8x4xf32> and tensor<3x4x5xf32> differ

// -----

%a, %b = "test.op"() : () -> (tensor<8x4xf32>, tensor<3x5xf32>)
%0 = tcp.matmul %a, %b : tensor<8x4xf32>, tensor<3x5xf32> -> tensor<8x5xf32>
// CHECK: error: 'tcp.matmul' op contracting dimensions differ: tensor<8x4xf32> has 4 columns, tensor<3x5xf32> has 3 rows

// -----

%a, %b = "test.op"() : () -> (tensor<8x4xf32>, tensor<4x5xf32>)
%0 = tcp.matmul %a, %b : tensor<8x4xf32>, tensor<4x5xf32> -> tensor<8x4xf32>
// CHECK: error: 'tcp.matmul' op result type tensor<8x4xf32> does not match the product of tensor<8x4xf32> and tensor<4x5xf32>

// -----

%a, %b = "test.op"() : () -> (tensor<8x4xf32>, tensor<4x5xf16>)
%0 = tcp.matmul %a, %b : tensor<8x4xf32>, tensor<4x5xf16> -> tensor<8x5xf32>
// CHECK: error: 'tcp.matmul' op requires the same element type for operands and result, but got tensor<8x4xf32>, tensor<4x5xf16> and tensor<8x5xf32>

// -----

// --- reductions (keep-dims) ---

%a = "test.op"() : () -> tensor<4x6xf32>
%0 = tcp.reduce_sum %a {axes = [1]} : tensor<4x6xf32> -> tensor<4xf32>
// CHECK: error: 'tcp.reduce_sum' op keeps the reduced dimensions, so operand and result must have the same rank, but got tensor<4x6xf32> and tensor<4xf32>

// -----

%a = "test.op"() : () -> tensor<4x6xf32>
%0 = tcp.reduce_max %a {axes = [1]} : tensor<4x6xf32> -> tensor<4x6xf32>
// CHECK: error: 'tcp.reduce_max' op reduced dimension 1 must have size 1 in the result, but got tensor<4x6xf32>

// -----

%a = "test.op"() : () -> tensor<4x6xf32>
%0 = tcp.reduce_min %a {axes = [1]} : tensor<4x6xf32> -> tensor<2x1xf32>
// CHECK: error: 'tcp.reduce_min' op dimension 0 is not reduced, so its size must not change, but got tensor<4x6xf32> and tensor<2x1xf32>

// -----

%a = "test.op"() : () -> tensor<4x6xf32>
%0 = tcp.reduce_prod %a {axes = []} : tensor<4x6xf32> -> tensor<4x6xf32>
// CHECK: error: 'tcp.reduce_prod' op requires at least one axis in `axes`

// -----

%a = "test.op"() : () -> tensor<4x6xf32>
%0 = tcp.reduce_sum %a {axes = [1, 0]} : tensor<4x6xf32> -> tensor<1x1xf32>
// CHECK: error: 'tcp.reduce_sum' op failed to verify that attribute `axes` must be in increasing order

// -----

%a = "test.op"() : () -> tensor<4x6xf32>
%0 = tcp.reduce_sum %a {axes = [2]} : tensor<4x6xf32> -> tensor<4x6xf32>
// CHECK: error: 'tcp.reduce_sum' op failed to verify that attribute `axes` are in bounds

// -----

%a = "test.op"() : () -> tensor<4x6xf32>
%0 = tcp.reduce_sum %a {axes = [1]} : tensor<4x6xf32> -> tensor<4x1xi32>
// CHECK: error: 'tcp.reduce_sum' op requires the same element type for operand and result, but got tensor<4x6xf32> and tensor<4x1xi32>
