// A fori_loop as JAX lowers it, its state split by rows: the loop carries the state as
// it is split, and each device runs the loop on its rows, with no collective.
shard.grid @g(shape = 8)
func.func @main(%x: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %rows : tensor<16x4xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%it = %c0, %acc = %x1) : tensor<i32>, tensor<16x4xf32>
  cond {
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %lt = stablehlo.compare LT, %it, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %it, %c1 : tensor<i32>
    %t = stablehlo.tanh %acc : tensor<16x4xf32>
    %m = stablehlo.multiply %t, %acc : tensor<16x4xf32>
    stablehlo.return %next, %m : tensor<i32>, tensor<16x4xf32>
  }
  %r1 = shard.shard %r#1 to %rows : tensor<16x4xf32>
  func.return %r1 : tensor<16x4xf32>
}
