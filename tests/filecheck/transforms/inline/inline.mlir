// RUN: xshard-opt %s --split-input-file -p inline | filecheck %s

// JAX's private helpers (here `jnp.where` and a helper calling it) are inlined into
// @main, calls inside calls included, and vanish once nobody calls them.
func.func public @main(%c: tensor<4xi1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @_where(%c, %x) : (tensor<4xi1>, tensor<4xf32>) -> tensor<4xf32>
  %1 = call @twice(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @_where(%arg0: tensor<4xi1>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
  %0 = stablehlo.select %arg0, %arg1, %cst : tensor<4xi1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @twice(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK:      func.func public @main(%c: tensor<4xi1>, %x: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:   %cst = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT:   %0 = stablehlo.select %c, %x, %cst : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT:   %1 = stablehlo.add %0, %0 : tensor<4xf32>
// CHECK-NEXT:   func.return %1 : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NOT:  func.func

// -----

// A recursive callee and an external declaration are left alone; a public function
// stays even when it is inlined.
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @loop(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = call @external(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = call @public_helper(%1) : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
func.func private @loop(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @loop(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @external(tensor<4xf32>) -> tensor<4xf32>
func.func public @public_helper(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    %0 = func.call @loop(%x) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %1 = func.call @external(%0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %2 = stablehlo.negate %1 : tensor<4xf32>
// CHECK-NEXT:    func.return %2 : tensor<4xf32>
// CHECK:       func.func private @loop
// CHECK:       func.func private @external(tensor<4xf32>) -> tensor<4xf32>
// CHECK:       func.func public @public_helper
