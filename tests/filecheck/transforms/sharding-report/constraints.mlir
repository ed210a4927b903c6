// JAX's with_sharding_constraint as import-sdy writes it, after aggressive propagation:
// the constraints table lists each, the layout it asks (an open dim refined by
// propagation), the layout its value had and the reshard it forced. Values inside a
// while body are listed with the rest.
// RUN: xshard-opt %s -p 'import-sdy,sharding-propagation{strategy=aggressive},sharding-report' | filecheck %s

sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %w: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"model"}]> : tensor<8x16xf32>
  %2 = stablehlo.sine %1 : tensor<8x16xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{}, {?}]> : tensor<8x16xf32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %4:2 = stablehlo.while(%i = %c, %h = %3) : tensor<i32>, tensor<8x16xf32>
  cond {
    %n = stablehlo.constant dense<2> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %t = stablehlo.tanh %h : tensor<8x16xf32>
    stablehlo.return %j, %t : tensor<i32>, tensor<8x16xf32>
  }
  return %4#1 : tensor<8x16xf32>
}
// CHECK:      // %14#1  stablehlo.while #1     14:3  tensor<8x16xf32>   {{\[\[}}], [1]]   -        propagated
// CHECK:      // %h     argument 1             -     tensor<8x16xf32>   {{\[\[}}], [1]]   -        propagated
// CHECK:      // %t     stablehlo.tanh         22:5  tensor<8x16xf32>   {{\[\[}}], [1]]   -        propagated
// CHECK:      // constraints: what each asks, and the reshard it forced
// CHECK-NEXT: // at    value  asks        open dims  value had   forced                                      bytes/device
// CHECK-NEXT: // 10:3  %6     {{\[\[}}0], [1]]  0          {{\[\[}}0], [1]]  -                                           -
// CHECK-NEXT: // 12:3  %10    {{\[\[}}], [1]]   1          {{\[\[}}0], [1]]  all_gather grid_axes = [0] gather_axis = 0  64
