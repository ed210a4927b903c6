// Every elementwise StableHLO op, forward and backward: with one tensor operand
// split (`_forward`), every tensor operand and the result take its sharding;
// with the result split (`_backward`), every operand takes it. Rank-0 operands
// (select's predicate, clamp's bounds) stay replicated, and compare's i1 result
// is split like its operands.
// RUN: xshard-opt %s -p sharding-propagation | filecheck %s

shard.grid @g(shape = 2x2)

func.func @abs_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.abs %x : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @abs_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.abs %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @abs_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.abs %a : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @abs_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.abs %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @negate_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.negate %x : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @negate_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.negate %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @negate_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.negate %a : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @negate_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.negate %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @sign_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.sign %x : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @sign_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.sign %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @sign_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.sign %a : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @sign_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.sign %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @exponential_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.exponential %x : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @exponential_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.exponential %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @exponential_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.exponential %a : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @exponential_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.exponential %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @exponential_minus_one_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.exponential_minus_one %x : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @exponential_minus_one_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.exponential_minus_one %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @exponential_minus_one_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.exponential_minus_one %a : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @exponential_minus_one_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.exponential_minus_one %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @log_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.log %x : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @log_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.log %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @log_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.log %a : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @log_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.log %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @log_plus_one_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.log_plus_one %x : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @log_plus_one_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.log_plus_one %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @log_plus_one_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.log_plus_one %a : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @log_plus_one_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.log_plus_one %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @tanh_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.tanh %x : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @tanh_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.tanh %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @tanh_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.tanh %a : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @tanh_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.tanh %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @logistic_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.logistic %x : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @logistic_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.logistic %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @logistic_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.logistic %a : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @logistic_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.logistic %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @sqrt_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.sqrt %x : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @sqrt_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.sqrt %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @sqrt_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.sqrt %a : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @sqrt_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.sqrt %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @rsqrt_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.rsqrt %x : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @rsqrt_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.rsqrt %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @rsqrt_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.rsqrt %a : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @rsqrt_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.rsqrt %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @sine_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.sine %x : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @sine_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.sine %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @sine_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.sine %a : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @sine_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.sine %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @cosine_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.cosine %x : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @cosine_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.cosine %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @cosine_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.cosine %a : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @cosine_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.cosine %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @floor_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.floor %x : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @floor_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.floor %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @floor_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.floor %a : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @floor_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.floor %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @ceil_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.ceil %x : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @ceil_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.ceil %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @ceil_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.ceil %a : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @ceil_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.ceil %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @not_forward(%a: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xi32>
  %0 = stablehlo.not %x : tensor<4x8xi32>
  func.return %0 : tensor<4x8xi32>
}

// CHECK-LABEL: func.func @not_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.not %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xi32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xi32>

func.func @not_backward(%a: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %0 = stablehlo.not %a : tensor<4x8xi32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xi32>
  func.return %r : tensor<4x8xi32>
}

// CHECK-LABEL: func.func @not_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.not %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xi32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xi32>

func.func @convert_forward(%a: tensor<4x8xf32>) -> tensor<4x8xf16> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.convert %x : (tensor<4x8xf32>) -> tensor<4x8xf16>
  func.return %0 : tensor<4x8xf16>
}

// CHECK-LABEL: func.func @convert_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.convert %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf16>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf16>

func.func @convert_backward(%a: tensor<4x8xf32>) -> tensor<4x8xf16> {
  %0 = stablehlo.convert %a : (tensor<4x8xf32>) -> tensor<4x8xf16>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf16>
  func.return %r : tensor<4x8xf16>
}

// CHECK-LABEL: func.func @convert_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.convert %[[U0]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf16>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf16>

func.func @add_forward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.add %x, %b : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @add_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.add %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @add_backward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.add %a, %b : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @add_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.add %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @subtract_forward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.subtract %x, %b : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @subtract_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.subtract %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @subtract_backward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.subtract %a, %b : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @subtract_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.subtract %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @multiply_forward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.multiply %x, %b : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @multiply_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.multiply %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @multiply_backward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.multiply %a, %b : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @multiply_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.multiply %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @divide_forward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.divide %x, %b : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @divide_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.divide %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @divide_backward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.divide %a, %b : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @divide_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.divide %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @remainder_forward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.remainder %x, %b : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @remainder_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.remainder %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @remainder_backward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.remainder %a, %b : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @remainder_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.remainder %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @maximum_forward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.maximum %x, %b : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @maximum_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.maximum %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @maximum_backward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.maximum %a, %b : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @maximum_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.maximum %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @minimum_forward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.minimum %x, %b : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @minimum_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.minimum %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @minimum_backward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.minimum %a, %b : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @minimum_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.minimum %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @power_forward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.power %x, %b : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @power_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.power %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @power_backward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.power %a, %b : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @power_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.power %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @atan2_forward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.atan2 %x, %b : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @atan2_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.atan2 %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @atan2_backward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.atan2 %a, %b : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @atan2_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.atan2 %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @and_forward(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xi32>
  %0 = stablehlo.and %x, %b : tensor<4x8xi32>
  func.return %0 : tensor<4x8xi32>
}

// CHECK-LABEL: func.func @and_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.and %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xi32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xi32>

func.func @and_backward(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %0 = stablehlo.and %a, %b : tensor<4x8xi32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xi32>
  func.return %r : tensor<4x8xi32>
}

// CHECK-LABEL: func.func @and_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.and %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xi32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xi32>

func.func @or_forward(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xi32>
  %0 = stablehlo.or %x, %b : tensor<4x8xi32>
  func.return %0 : tensor<4x8xi32>
}

// CHECK-LABEL: func.func @or_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.or %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xi32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xi32>

func.func @or_backward(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %0 = stablehlo.or %a, %b : tensor<4x8xi32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xi32>
  func.return %r : tensor<4x8xi32>
}

// CHECK-LABEL: func.func @or_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.or %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xi32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xi32>

func.func @xor_forward(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xi32>
  %0 = stablehlo.xor %x, %b : tensor<4x8xi32>
  func.return %0 : tensor<4x8xi32>
}

// CHECK-LABEL: func.func @xor_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.xor %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xi32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xi32>

func.func @xor_backward(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %0 = stablehlo.xor %a, %b : tensor<4x8xi32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xi32>
  func.return %r : tensor<4x8xi32>
}

// CHECK-LABEL: func.func @xor_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.xor %[[U0]], %[[U1]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xi32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xi32>

func.func @compare_forward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xi1> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %a to %s : tensor<4x8xf32>
  %0 = stablehlo.compare LT, %x, %b, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  func.return %0 : tensor<4x8xi1>
}

// CHECK-LABEL: func.func @compare_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.compare LT, %[[U0]], %[[U1]], FLOAT :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xi1>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xi1>

func.func @compare_backward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xi1> {
  %0 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xi1>
  func.return %r : tensor<4x8xi1>
}

// CHECK-LABEL: func.func @compare_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.compare LT, %[[U0]], %[[U1]], FLOAT :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xi1>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xi1>

func.func @select_forward(%a: tensor<4x8xi1>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %b to %s : tensor<4x8xf32>
  %0 = stablehlo.select %a, %x, %c : tensor<4x8xi1>, tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @select_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK-DAG:   %[[A2:.+]] = shard.shard %c to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xi1>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U2:.+]] = shard.shard %[[A2]] to %[[S2]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.select %[[U0]], %[[U1]], %[[U2]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @select_backward(%a: tensor<4x8xi1>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.select %a, %b, %c : tensor<4x8xi1>, tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @select_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK-DAG:   %[[A2:.+]] = shard.shard %c to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xi1>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U2:.+]] = shard.shard %[[A2]] to %[[S2]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.select %[[U0]], %[[U1]], %[[U2]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @select_scalar_pred_forward(%a: tensor<i1>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %b to %s : tensor<4x8xf32>
  %0 = stablehlo.select %a, %x, %c : tensor<i1>, tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @select_scalar_pred_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK-DAG:   %[[A2:.+]] = shard.shard %c to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<i1>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U2:.+]] = shard.shard %[[A2]] to %[[S2]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.select %[[U0]], %[[U1]], %[[U2]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @select_scalar_pred_backward(%a: tensor<i1>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.select %a, %b, %c : tensor<i1>, tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @select_scalar_pred_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK-DAG:   %[[A2:.+]] = shard.shard %c to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<i1>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U2:.+]] = shard.shard %[[A2]] to %[[S2]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.select %[[U0]], %[[U1]], %[[U2]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @clamp_forward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %b to %s : tensor<4x8xf32>
  %0 = stablehlo.clamp %a, %x, %c : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @clamp_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK-DAG:   %[[A2:.+]] = shard.shard %c to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U2:.+]] = shard.shard %[[A2]] to %[[S2]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.clamp %[[U0]], %[[U1]], %[[U2]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @clamp_backward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.clamp %a, %b, %c : tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @clamp_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK-DAG:   %[[A2:.+]] = shard.shard %c to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U2:.+]] = shard.shard %[[A2]] to %[[S2]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.clamp %[[U0]], %[[U1]], %[[U2]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @clamp_scalar_bounds_forward(%a: tensor<f32>, %b: tensor<4x8xf32>, %c: tensor<f32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %b to %s : tensor<4x8xf32>
  %0 = stablehlo.clamp %a, %x, %c : (tensor<f32>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @clamp_scalar_bounds_forward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK-DAG:   %[[A2:.+]] = shard.shard %c to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<f32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT: %[[U2:.+]] = shard.shard %[[A2]] to %[[S2]] annotate_for_users : tensor<f32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.clamp %[[U0]], %[[U1]], %[[U2]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>

func.func @clamp_scalar_bounds_backward(%a: tensor<f32>, %b: tensor<4x8xf32>, %c: tensor<f32>) -> tensor<4x8xf32> {
  %0 = stablehlo.clamp %a, %b, %c : (tensor<f32>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @clamp_scalar_bounds_backward(
// CHECK-DAG:   %[[A0:.+]] = shard.shard %a to
// CHECK-DAG:   %[[A1:.+]] = shard.shard %b to
// CHECK-DAG:   %[[A2:.+]] = shard.shard %c to
// CHECK:      %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT: %[[U0:.+]] = shard.shard %[[A0]] to %[[S0]] annotate_for_users : tensor<f32>
// CHECK-NEXT: %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[U1:.+]] = shard.shard %[[A1]] to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT: %[[U2:.+]] = shard.shard %[[A2]] to %[[S2]] annotate_for_users : tensor<f32>
// CHECK-NEXT: %[[R:.+]] = stablehlo.clamp %[[U0]], %[[U1]], %[[U2]] :
// CHECK-NEXT: %[[SR:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT: %[[RR:.+]] = shard.shard %[[R]] to %[[SR]] : tensor<4x8xf32>
// CHECK-NEXT: func.return %[[RR]] : tensor<4x8xf32>
