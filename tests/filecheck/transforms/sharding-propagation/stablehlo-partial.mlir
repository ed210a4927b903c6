// Partial operands through StableHLO ops. A partial value (`partial = sum [1]`:
// each device along grid axis 1 holds a summand) passes through an op that
// distributes over its reduction, and the result is partial alike. Through any
// other op the operand is asked reduced (its split axes, no partial axes: an
// all-reduce for the partitioner) and the result is not partial.
// One forward sweep: each op is visited once, from its operands.
// RUN: xshard-opt %s --split-input-file -p 'sharding-propagation{traversal=forward}' | filecheck %s

// Σa + Σb = Σ(a + b): the sum stays partial.
shard.grid @g(shape = 2x2)
func.func @add_both_partial(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %s1 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x1 = shard.shard %b to %s1 : tensor<4x8xf32>
  %0 = stablehlo.add %x0, %x1 : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @add_both_partial(
// CHECK:       %x1 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x1 to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.add
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>

// -----

// Only every operand partial alike adds up: the other operand is asked partial too
// (a free reshard for the partitioner: the value on one device per group, zeros on the
// others), so the sum stays partial.
shard.grid @g(shape = 2x2)
func.func @add_one_partial(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.add %x0, %b : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @add_one_partial(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %{{.+}} to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.add
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>

// -----

shard.grid @g(shape = 2x2)
func.func @subtract_both_partial(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %s1 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x1 = shard.shard %b to %s1 : tensor<4x8xf32>
  %0 = stablehlo.subtract %x0, %x1 : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @subtract_both_partial(
// CHECK:       %x1 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x1 to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.subtract
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>

// -----

// b * Σa = Σ(b * a): one partial operand, the other stays whole.
shard.grid @g(shape = 2x2)
func.func @multiply_one_partial(%b: tensor<4x8xf32>, %a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s1 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x1 = shard.shard %a to %s1 : tensor<4x8xf32>
  %0 = stablehlo.multiply %b, %x1 : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @multiply_one_partial(
// CHECK:       %x1 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %{{.+}} to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x1 to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.multiply
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>

// -----

// Σa / b = Σ(a / b).
shard.grid @g(shape = 2x2)
func.func @divide_partial_numerator(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.divide %x0, %b : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @divide_partial_numerator(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %{{.+}} to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.divide
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>

// -----

// b / Σa is not a sum of anything: the denominator is asked reduced
// (same split axes, no partial axes), so the result is not partial.
shard.grid @g(shape = 2x2)
func.func @divide_by_partial(%b: tensor<4x8xf32>, %a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s1 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x1 = shard.shard %a to %s1 : tensor<4x8xf32>
  %0 = stablehlo.divide %b, %x1 : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @divide_by_partial(
// CHECK:       %x1 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %{{.+}} to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x1 to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.divide
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>

// -----

// Integer division truncates each summand: the numerator is asked reduced.
shard.grid @g(shape = 2x2)
func.func @divide_integer_partial(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xi32>
  %0 = stablehlo.divide %x0, %b : tensor<4x8xi32>
  func.return %0 : tensor<4x8xi32>
}
// CHECK-LABEL: func.func @divide_integer_partial(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %{{.+}} to %[[S1]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.divide
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xi32>

// -----

shard.grid @g(shape = 2x2)
func.func @negate_partial(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.negate %x0 : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @negate_partial(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.negate
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>

// -----

// A float widening converts each summand exactly.
shard.grid @g(shape = 2x2)
func.func @convert_widen_partial(%a: tensor<4x8xf32>) -> tensor<4x8xf64> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.convert %x0 : (tensor<4x8xf32>) -> tensor<4x8xf64>
  func.return %0 : tensor<4x8xf64>
}
// CHECK-LABEL: func.func @convert_widen_partial(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.convert
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf64>

// -----

// Float to integer rounds each summand: not kept.
shard.grid @g(shape = 2x2)
func.func @convert_to_int_partial(%a: tensor<4x8xf32>) -> tensor<4x8xi32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.convert %x0 : (tensor<4x8xf32>) -> tensor<4x8xi32>
  func.return %0 : tensor<4x8xi32>
}
// CHECK-LABEL: func.func @convert_to_int_partial(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.convert
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xi32>

// -----

// Integer narrowing wraps each summand as it wraps the sum (mod 2^16).
shard.grid @g(shape = 2x2)
func.func @convert_int_narrow_partial(%a: tensor<4x8xi32>) -> tensor<4x8xi16> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xi32>
  %0 = stablehlo.convert %x0 : (tensor<4x8xi32>) -> tensor<4x8xi16>
  func.return %0 : tensor<4x8xi16>
}
// CHECK-LABEL: func.func @convert_int_narrow_partial(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.convert
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xi16>

// -----

// Integer widening does not: the i16 sum may have wrapped.
shard.grid @g(shape = 2x2)
func.func @convert_int_widen_partial(%a: tensor<4x8xi16>) -> tensor<4x8xi32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xi16>
  %0 = stablehlo.convert %x0 : (tensor<4x8xi16>) -> tensor<4x8xi32>
  func.return %0 : tensor<4x8xi32>
}
// CHECK-LABEL: func.func @convert_int_widen_partial(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xi16>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.convert
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xi32>

// -----

// Rounding is monotone, so a partial max survives even a narrowing.
shard.grid @g(shape = 2x2)
func.func @convert_narrow_max(%a: tensor<4x8xf32>) -> tensor<4x8xf16> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = max [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.convert %x0 : (tensor<4x8xf32>) -> tensor<4x8xf16>
  func.return %0 : tensor<4x8xf16>
}
// CHECK-LABEL: func.func @convert_narrow_max(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = max [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.convert
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = max [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf16>

// -----

// tanh(Σa) is no sum: the operand is asked reduced and the result is not partial.
shard.grid @g(shape = 2x2)
func.func @tanh_partial(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.tanh %x0 : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @tanh_partial(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.tanh
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>

// -----

shard.grid @g(shape = 2x2)
func.func @exponential_partial(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.exponential %x0 : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @exponential_partial(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.exponential
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>

// -----

// tanh is non-decreasing: tanh(max a) = max tanh(a).
shard.grid @g(shape = 2x2)
func.func @tanh_max(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = max [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.tanh %x0 : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @tanh_max(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = max [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.tanh
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = max [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>

// -----

// max(max_i a_i, b) = max_i max(a_i, b): b may stay whole.
shard.grid @g(shape = 2x2)
func.func @maximum_max_join(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = max [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.maximum %x0, %b : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @maximum_max_join(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = max [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %{{.+}} to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.maximum
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = max [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>

// -----

// A partial sum does not pass through maximum.
shard.grid @g(shape = 2x2)
func.func @maximum_of_sum(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.maximum %x0, %b : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @maximum_of_sum(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %{{.+}} to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.maximum
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>

// -----

// Both branches partial alike; the predicate stays whole.
shard.grid @g(shape = 2x2)
func.func @select_partial_branches(%p: tensor<4x8xi1>, %a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s1 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x1 = shard.shard %a to %s1 : tensor<4x8xf32>
  %s2 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x2 = shard.shard %b to %s2 : tensor<4x8xf32>
  %0 = stablehlo.select %p, %x1, %x2 : tensor<4x8xi1>, tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @select_partial_branches(
// CHECK:       %x2 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %{{.+}} to %[[S0]] annotate_for_users : tensor<4x8xi1>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x1 to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x2 to %[[S2]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.select
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>

// -----

// Data movement carries the partial state.
shard.grid @g(shape = 2x2)
func.func @transpose_partial(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.transpose %x0, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  func.return %0 : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @transpose_partial(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.transpose
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<8x4xf32>

// -----

shard.grid @g(shape = 2x2)
func.func @reshape_partial(%a: tensor<4x8xf32>) -> tensor<4x2x4xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.reshape %x0 : (tensor<4x8xf32>) -> tensor<4x2x4xf32>
  func.return %0 : tensor<4x2x4xf32>
}
// CHECK-LABEL: func.func @reshape_partial(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.reshape
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x2x4xf32>

// -----

shard.grid @g(shape = 2x2)
func.func @broadcast_in_dim_partial(%a: tensor<4xf32>) -> tensor<4x8xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4xf32>
  %0 = stablehlo.broadcast_in_dim %x0, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @broadcast_in_dim_partial(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.broadcast_in_dim
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>

// -----

shard.grid @g(shape = 2x2)
func.func @slice_partial(%a: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.slice %x0 [0:4, 1:5] : (tensor<4x8xf32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}
// CHECK-LABEL: func.func @slice_partial(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.slice
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x4xf32>

// -----

shard.grid @g(shape = 2x2)
func.func @concatenate_partial(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>) -> tensor<4x10xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %s1 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x1 = shard.shard %b to %s1 : tensor<4x2xf32>
  %0 = stablehlo.concatenate %x0, %x1, dim = 1 : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
  func.return %0 : tensor<4x10xf32>
}
// CHECK-LABEL: func.func @concatenate_partial(
// CHECK:       %x1 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x1 to %[[S1]] annotate_for_users : tensor<4x2xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.concatenate
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x10xf32>

// -----

// dot(Σa, b) = Σ dot(a, b).
shard.grid @g(shape = 2x2)
func.func @dot_general_partial_lhs(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.dot_general %x0, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  func.return %0 : tensor<4x6xf32>
}
// CHECK-LABEL: func.func @dot_general_partial_lhs(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %{{.+}} to %[[S1]] annotate_for_users : tensor<8x6xf32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.dot_general
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4x6xf32>

// -----

// A sum over a split dim of a partial sum: partial over both axes, and so is the init,
// which the reduction folds in once.
shard.grid @g(shape = 2x2)
func.func @reduce_sum_of_partial(%a: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<8xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.reduce(%x0 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK-LABEL: func.func @reduce_sum_of_partial(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}]] partial = sum [0, 1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %{{.+}} to %[[S1]] annotate_for_users : tensor<f32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.reduce
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}]] partial = sum [0, 1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<8xf32>

// -----

// max does not distribute over a sum: the input is asked reduced.
shard.grid @g(shape = 2x2)
func.func @reduce_max_of_partial_sum(%a: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %x0 = shard.shard %a to %s0 : tensor<4x8xf32>
  %0 = stablehlo.reduce(%x0 init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func @reduce_max_of_partial_sum(
// CHECK:       %x0 = shard.shard
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %x0 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %{{.+}} to %[[S1]] annotate_for_users : tensor<f32>
// CHECK-NEXT:  %[[R:.+]] = stablehlo.reduce
// CHECK-NEXT:  %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[SR]] : tensor<4xf32>
