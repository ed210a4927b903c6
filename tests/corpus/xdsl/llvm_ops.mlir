llvm.func @llvm(%a: i32, %v: vector<4xi32>) -> !llvm.struct<(i32, f64)> {
  %0 = llvm.mlir.constant(3.5 : f64) : f64
  %1 = llvm.mlir.undef : !llvm.struct<(i32, f64)>
  %2 = llvm.insertvalue %a, %1[0] : !llvm.struct<(i32, f64)>
  %3 = llvm.insertvalue %0, %2[1] : !llvm.struct<(i32, f64)>
  %4 = llvm.shufflevector %v, %v [0, 0, 3, 3] : vector<4xi32>
  llvm.return %3 : !llvm.struct<(i32, f64)>
}
