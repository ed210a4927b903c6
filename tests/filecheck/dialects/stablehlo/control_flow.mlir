// RUN: XSHARD_ROUNDTRIP
// RUN: XSHARD_GENERIC_ROUNDTRIP

// while and optimization_barrier in upstream's pretty forms, case and sort in the
// generic form JAX prints: they must print back the same.

func.func @fori(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %x) : tensor<i32>, tensor<4x16xf32>
  cond {
    %c_1 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %iterArg, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = func.call @closed_call(%iterArg_0) : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.add %iterArg, %c_1 : tensor<i32>
    stablehlo.return %2, %1 : tensor<i32>, tensor<4x16xf32>
  }
  func.return %0#1 : tensor<4x16xf32>
}
func.func private @closed_call(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  func.return %a : tensor<4x16xf32>
}
// CHECK-LABEL: func.func @fori
// CHECK:       %0:2 = stablehlo.while(%iterArg = %c, %[[X:iterArg_[0-9]+]] = %x) : tensor<i32>, tensor<4x16xf32>
// CHECK-NEXT:  cond {
// CHECK-NEXT:    %[[C:.*]] = stablehlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:    %[[P:.*]] = stablehlo.compare LT, %iterArg, %[[C]], SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:    stablehlo.return %[[P]] : tensor<i1>
// CHECK-NEXT:  } do {
// CHECK-NEXT:    %[[Y:.*]] = func.call @closed_call(%[[X]]) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK:         stablehlo.return %{{.*}}, %[[Y]] : tensor<i32>, tensor<4x16xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.return %0#1 : tensor<4x16xf32>
// CHECK-GENERIC: "stablehlo.while"(%c, %x) ({
// CHECK-GENERIC-NEXT: ^bb0(%iterArg: tensor<i32>, %{{.*}}: tensor<4x16xf32>):
// CHECK-GENERIC: }) : (tensor<i32>, tensor<4x16xf32>) -> (tensor<i32>, tensor<4x16xf32>)

func.func @no_state() {
  stablehlo.while() attributes {note = "spin"}
  cond {
    %t = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    stablehlo.return
  }
  func.return
}
// CHECK-LABEL: func.func @no_state
// CHECK-NEXT:  stablehlo.while() attributes {note = "spin"}
// CHECK-NEXT:  cond {

func.func @cond(%x: tensor<4x16xf32>, %i: tensor<i32>) -> tensor<4x16xf32> {
  %0 = "stablehlo.case"(%i) ({
    %1 = stablehlo.exponential %x : tensor<4x16xf32>
    stablehlo.return %1 : tensor<4x16xf32>
  }, {
    stablehlo.return %x : tensor<4x16xf32>
  }) : (tensor<i32>) -> tensor<4x16xf32>
  func.return %0 : tensor<4x16xf32>
}
// CHECK-LABEL: func.func @cond
// CHECK-NEXT:  %0 = "stablehlo.case"(%i) ({
// CHECK-NEXT:    %1 = stablehlo.exponential %x : tensor<4x16xf32>
// CHECK-NEXT:    stablehlo.return %1 : tensor<4x16xf32>
// CHECK-NEXT:  }, {
// CHECK-NEXT:    stablehlo.return %x : tensor<4x16xf32>
// CHECK-NEXT:  }) : (tensor<i32>) -> tensor<4x16xf32>

func.func @argsort(%x: tensor<4x16xf32>, %i: tensor<4x16xi32>) -> (tensor<4x16xf32>, tensor<4x16xi32>, tensor<4x16xf32>) {
  %0:2 = "stablehlo.sort"(%x, %i) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<4x16xf32>, tensor<4x16xi32>) -> (tensor<4x16xf32>, tensor<4x16xi32>)
  %2 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  func.return %0#0, %0#1, %2 : tensor<4x16xf32>, tensor<4x16xi32>, tensor<4x16xf32>
}
// CHECK-LABEL: func.func @argsort
// CHECK-NEXT:  %0:2 = "stablehlo.sort"(%x, %i) <{dimension = 1 : i64, is_stable = true}> ({
// CHECK-NEXT:  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
// CHECK:       %{{.*}} = "stablehlo.sort"(%x) ({
// CHECK-GENERIC: "stablehlo.sort"(%x, %i) <{dimension = 1 : i64, is_stable = true}> ({

func.func @remat(%x: tensor<4x16xf32>, %n: tensor<i32>) -> (tensor<4x16xf32>, tensor<i32>) {
  %0:2 = stablehlo.optimization_barrier %x, %n : tensor<4x16xf32>, tensor<i32>
  stablehlo.optimization_barrier()
  func.return %0#0, %0#1 : tensor<4x16xf32>, tensor<i32>
}
// CHECK-LABEL: func.func @remat
// CHECK-NEXT:  %0:2 = stablehlo.optimization_barrier %x, %n : tensor<4x16xf32>, tensor<i32>
// CHECK-NEXT:  stablehlo.optimization_barrier()
// CHECK-GENERIC: "stablehlo.optimization_barrier"(%x, %n) : (tensor<4x16xf32>, tensor<i32>) -> (tensor<4x16xf32>, tensor<i32>)
