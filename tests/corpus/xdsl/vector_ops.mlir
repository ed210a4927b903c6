func.func @vectors(%a: vector<4xf32>, %b: vector<4xf32>, %s: f32) -> (vector<8xf32>, vector<4xf32>, vector<4xf32>) {
  %0 = vector.shuffle %a, %b [0, 4, 1, 5, 2, 6, 3, 7] : vector<4xf32>, vector<4xf32>
  %1 = vector.broadcast %s : f32 to vector<4xf32>
  %2 = vector.fma %a, %b, %1 : vector<4xf32>
  return %0, %1, %2 : vector<8xf32>, vector<4xf32>, vector<4xf32>
}
