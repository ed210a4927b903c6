// Scalar arith on process indices becomes StableHLO on rank-0 tensors (index as
// tensor<i64>, cmpi as tensor<i1>); an i1 of that kind picks between tensors in
// stablehlo.select, from arith.select or from an scf.if whose branches both run.
// RUN: xshard-opt %s -p convert-shard-to-stablehlo | filecheck %s

shard.grid @g(shape = 2x4)

// CHECK-LABEL: func.func @mask
// CHECK:         %[[ID:.*]] = stablehlo.convert %{{.*}} : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT:    %[[FOUR:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT:    %[[COL:.*]] = stablehlo.remainder %[[ID]], %[[FOUR]] : tensor<i64>
// CHECK-NEXT:    %[[THREE:.*]] = stablehlo.constant dense<3> : tensor<i64>
// CHECK-NEXT:    %[[P:.*]] = stablehlo.compare EQ, %[[COL]], %[[THREE]], SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:    %z = stablehlo.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT:    %m = stablehlo.select %[[P]], %x, %z : tensor<i1>, tensor<3xf32>
// CHECK-NEXT:    func.return %m
// CHECK-NOT:     arith.
func.func @mask(%x: tensor<3xf32>) -> tensor<3xf32> {
  %i = shard.process_multi_index on @g axes = [1] : index
  %c3 = arith.constant 3 : index
  %p = arith.cmpi eq, %i, %c3 : index
  %z = arith.constant dense<0.000000e+00> : tensor<3xf32>
  %m = arith.select %p, %x, %z : tensor<3xf32>
  func.return %m : tensor<3xf32>
}

// Signed ops map one to one; unsigned ones run on ui64 copies.
// CHECK-LABEL: func.func @arithmetic
// CHECK:         %[[L:.*]] = stablehlo.convert %{{.*}} : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT:    %[[C2:.*]] = stablehlo.constant dense<2> : tensor<i64>
// CHECK-NEXT:    %[[A:.*]] = stablehlo.multiply %[[L]], %[[C2]] : tensor<i64>
// CHECK-NEXT:    %[[C3:.*]] = stablehlo.constant dense<3> : tensor<i64>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.subtract %[[A]], %[[C3]] : tensor<i64>
// CHECK-NEXT:    %[[C3B:.*]] = stablehlo.constant dense<3> : tensor<i64>
// CHECK-NEXT:    %[[D:.*]] = stablehlo.divide %[[B]], %[[C3B]] : tensor<i64>
// CHECK-NEXT:    %[[C3C:.*]] = stablehlo.constant dense<3> : tensor<i64>
// CHECK-NEXT:    %[[UB:.*]] = stablehlo.convert %[[B]] : (tensor<i64>) -> tensor<ui64>
// CHECK-NEXT:    %[[U3:.*]] = stablehlo.convert %[[C3C]] : (tensor<i64>) -> tensor<ui64>
// CHECK-NEXT:    %[[UR:.*]] = stablehlo.remainder %[[UB]], %[[U3]] : tensor<ui64>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.convert %[[UR]] : (tensor<ui64>) -> tensor<i64>
// CHECK-NEXT:    %[[C3D:.*]] = stablehlo.constant dense<3> : tensor<i64>
// CHECK-NEXT:    %[[UL:.*]] = stablehlo.convert %[[L]] : (tensor<i64>) -> tensor<ui64>
// CHECK-NEXT:    %[[UC:.*]] = stablehlo.convert %[[C3D]] : (tensor<i64>) -> tensor<ui64>
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.compare GE, %[[UL]], %[[UC]], UNSIGNED : (tensor<ui64>, tensor<ui64>) -> tensor<i1>
// CHECK-NEXT:    %[[TRUE:.*]] = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT:    %[[NQ:.*]] = stablehlo.xor %[[Q]], %[[TRUE]] : tensor<i1>
// CHECK-NEXT:    %[[S:.*]] = stablehlo.select %[[NQ]], %[[D]], %[[R]] : tensor<i1>, tensor<i64>
// CHECK-NEXT:    %[[T:.*]] = stablehlo.convert %[[S]] : (tensor<i64>) -> tensor<i32>
// CHECK-NEXT:    %[[E:.*]] = stablehlo.convert %[[NQ]] : (tensor<i1>) -> tensor<i8>
// CHECK-NEXT:    %[[NE:.*]] = stablehlo.negate %[[E]] : tensor<i8>
// CHECK-NEXT:    func.return %[[S]], %[[T]], %[[NE]] : tensor<i64>, tensor<i32>, tensor<i8>
func.func @arithmetic() -> (index, i32, i8) {
  %l = shard.process_linear_index on @g : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %true = arith.constant true
  %a = arith.muli %l, %c2 : index
  %b = arith.subi %a, %c3 : index
  %d = arith.divsi %b, %c3 : index
  %r = arith.remui %b, %c3 : index
  %q = arith.cmpi uge, %l, %c3 : index
  %nq = arith.xori %q, %true : i1
  %s = arith.select %nq, %d, %r : index
  %t = arith.index_cast %s : index to i32
  %e = arith.extsi %nq : i1 to i8
  func.return %s, %t, %e : index, i32, i8
}

// scf.if on a process index: both branches inlined, a select per result.
// CHECK-LABEL: func.func @branches
// CHECK:         %[[P:.*]] = stablehlo.compare EQ, %{{.*}}, %{{.*}}, SIGNED
// CHECK-NEXT:    %n = stablehlo.negate %x : tensor<3xf32>
// CHECK-NEXT:    %r = stablehlo.select %[[P]], %x, %n : tensor<i1>, tensor<3xf32>
// CHECK-NEXT:    func.return %r
// CHECK-NOT:     scf.
func.func @branches(%x: tensor<3xf32>) -> tensor<3xf32> {
  %i = shard.process_multi_index on @g axes = [0] : index
  %c0 = arith.constant 0 : index
  %p = arith.cmpi eq, %i, %c0 : index
  %r = scf.if %p -> (tensor<3xf32>) {
    scf.yield %x : tensor<3xf32>
  } else {
    %n = stablehlo.negate %x : tensor<3xf32>
    scf.yield %n : tensor<3xf32>
  }
  func.return %r : tensor<3xf32>
}

// A computed root: (row + 1) % 2 of the other row.
// CHECK-LABEL: func.func @computed_root
// CHECK:         %[[ROW:.*]] = stablehlo.divide
// CHECK:         %[[NEXT:.*]] = stablehlo.add %[[ROW]], %{{.*}} : tensor<i64>
// CHECK:         %[[ROOT:.*]] = stablehlo.remainder %[[NEXT]], %{{.*}} : tensor<i64>
// CHECK:         stablehlo.compare EQ, %{{.*}}, %[[ROOT]], SIGNED
// CHECK:         stablehlo.all_reduce
func.func @computed_root(%x: tensor<3xf32>) -> tensor<3xf32> {
  %i = shard.process_multi_index on @g axes = [0] : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = arith.addi %i, %c1 : index
  %root = arith.remsi %n, %c2 : index
  %b = shard.broadcast %x on @g grid_axes = [0] root = [%root] : (tensor<3xf32>, index) -> tensor<3xf32>
  func.return %b : tensor<3xf32>
}
