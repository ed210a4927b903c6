// RUN: xshard-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier failures of sdy.manual_computation and sdy.return, one per chunk: Shardy's
// checks (verifyManualComputationValue), with Shardy's wording where it has one.

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x16xf32>) {
    sdy.return %arg1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: manual_computation_invalid.mlir:8:3: error: 'sdy.manual_computation' op operand shardings don't match number of values: 2 shardings vs 1 values

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x16xf32>, %arg2: tensor<4x16xf32>) {
    sdy.return %arg1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: 'sdy.manual_computation' op number of op operands and region operands must match. Op has 1 op operands and 2 region operands

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[] manual_axes={"a"} (%arg1: tensor<4x16xf32>) {
    sdy.return %arg1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: 'sdy.manual_computation' op result shardings don't match number of values: 0 shardings vs 1 values

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x16xf32>) {
    sdy.return %arg1, %arg1 : tensor<4x16xf32>, tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: 'sdy.manual_computation' op number of op results and region results must match. Op has 1 op results and 2 region results

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@other, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x16xf32>) {
    sdy.return %arg1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: 'sdy.manual_computation' op operand - unknown mesh: @other

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
sdy.mesh @other = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@other, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x16xf32>) {
    sdy.return %arg1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: 'sdy.manual_computation' op all in and out shardings must be bound to the same mesh, got @other and @mesh

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a", "c"} (%arg1: tensor<4x16xf32>) {
    sdy.return %arg1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: 'sdy.manual_computation' op unknown manual axis: "c"

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a", "a"} (%arg1: tensor<4x16xf32>) {
    sdy.return %arg1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: 'sdy.manual_computation' op manual_axes name an axis twice: {"a", "a"}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x16xf32>) {
    sdy.return %arg1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: 'sdy.manual_computation' op operand - sharding doesn't match tensor rank: 3 != 2

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {"c"}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x16xf32>) {
    sdy.return %arg1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: 'sdy.manual_computation' op operand - unknown axis name: "c"

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{}, {"a", "b"}]>] out_shardings=[<@mesh, [{}, {"b"}]>] manual_axes={"b"} (%arg1: tensor<8x4xf32>) {
    sdy.return %arg1 : tensor<8x4xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: 'sdy.manual_computation' op operand sharding at index 0 must have all manual axes come before free axes in its dimension sharding at index 1. Saw manual axis "b" after free axis "a"

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<6x16xf32>) -> tensor<6x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{"b"}, {}]>] manual_axes={"b"} (%arg1: tensor<1x16xf32>) {
    sdy.return %arg1 : tensor<1x16xf32>
  } : (tensor<6x16xf32>) -> tensor<6x16xf32>
  func.return %0 : tensor<6x16xf32>
}
// CHECK: 'sdy.manual_computation' op operand dimension size 6 is not divisible by the manual axes size 4

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a", "b"}, {}]>] out_shardings=[<@mesh, [{"a", "b"}, {}]>] manual_axes={"a"} (%arg1: tensor<1x16xf32>) {
    sdy.return %arg1 : tensor<1x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// Only the manual axes divide: "b" is free, the body stays global over it.
// CHECK: 'sdy.manual_computation' op operand shape, corresponding sharding, and region operand shape at index 0 must match. Expected local shape 'tensor<4x16xf32>', actual local shape 'tensor<1x16xf32>'

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{}, {"a"}]>] manual_axes={"a"} (%arg1: tensor<4x16xf32>) {
    sdy.return %arg1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: 'sdy.manual_computation' op result shape, corresponding sharding, and region result shape at index 0 must match. Expected local shape 'tensor<8x8xf32>', actual local shape 'tensor<4x16xf32>'

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x16xf32>) {
    %1 = sdy.manual_computation(%arg1) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg2: tensor<2x16xf32>) {
      sdy.return %arg2 : tensor<2x16xf32>
    } : (tensor<4x16xf32>) -> tensor<4x16xf32>
    sdy.return %1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: 'sdy.manual_computation' op operates on axis "a" which is already bound by a parent sdy.manual_computation op

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"a"} (%arg1: tensor<4x16xf32>) {
    sdy.return %x : tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: Operation using value defined out of its IsolatedFromAbove parent

// -----

func.func @f(%x: tensor<8x16xf32>) {
  "sdy.return"(%x) : (tensor<8x16xf32>) -> ()
}
// CHECK: 'sdy.return' expects parent op 'sdy.manual_computation'

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%x: tensor<8x16xf32>) {
  "sdy.manual_computation"(%x) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>, manual_axes = #sdy<manual_axes{"a"}>, out_shardings = #sdy.sharding_per_value<[]>}> ({
  ^bb0(%arg1: tensor<4x16xf32>):
    %1 = stablehlo.negate %arg1 : tensor<4x16xf32>
  }) : (tensor<8x16xf32>) -> ()
  func.return
}
// CHECK: Operation stablehlo.negate terminates block in single-block region but is not a terminator
