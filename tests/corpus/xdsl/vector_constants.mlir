func.func @vconst() -> (vector<4xf32>, vector<2x2xi32>, vector<3xi1>, vector<2xf64>) {
  %0 = arith.constant dense<0.5> : vector<4xf32>
  %1 = arith.constant dense<[[1, -1], [2, -2]]> : vector<2x2xi32>
  %2 = arith.constant dense<[true, true, false]> : vector<3xi1>
  %3 = arith.constant dense<[1.0e300, -1.0e-300]> : vector<2xf64>
  return %0, %1, %2, %3 : vector<4xf32>, vector<2x2xi32>, vector<3xi1>, vector<2xf64>
}
