// strategy=auto: per gather, the form of least modeled time (xshard/sharding/overlap_cost.py),
// the times behind each choice printed with report=true. On target=cpu, gathering the
// 1 KiB shard costs less than the 7 extra matmuls of a decomposed form: it stays; the
// 64 KiB shard's gather costs more, and the ring hides it behind the matmuls.
// RUN: xshard-opt %s -p 'shard-decompose-all-gather{strategy=auto report=true}' | filecheck %s
// RUN: xshard-opt %s -p 'shard-decompose-all-gather{strategy=auto report=true target=gpu}' | filecheck %s --check-prefix=GPU
// comm-report shows the same choice before any rewrite:
// RUN: xshard-opt %s -p 'comm-report{overlap=cpu}' | filecheck %s --check-prefix=REPORT
// REPORT:      // overlapping all_gathers with their matmuls (target=cpu):
// REPORT-NEXT: // all_gather input                steps  none µs  broadcast µs  ring µs  choice
// REPORT-NEXT: // tensor<8x32xf32> over @m [0]    8      {{[0-9.]+}} {{ +}}{{[0-9.]+}} {{ +}}{{[0-9.]+}} {{ +}}none
// REPORT-NEXT: // tensor<64x256xf32> over @m [0]  8      {{[0-9.]+}} {{ +}}{{[0-9.]+}} {{ +}}{{[0-9.]+}} {{ +}}ring

// CHECK:      // shard-decompose-all-gather{strategy=auto target=cpu}: modeled times
// CHECK-NEXT: // all_gather input                steps  none µs  broadcast µs  ring µs  choice
// CHECK-NEXT: // tensor<8x32xf32> over @m [0]    8      {{[0-9.]+}} {{ +}}{{[0-9.]+}} {{ +}}{{[0-9.]+}} {{ +}}none
// CHECK-NEXT: // tensor<64x256xf32> over @m [0]  8      {{[0-9.]+}} {{ +}}{{[0-9.]+}} {{ +}}{{[0-9.]+}} {{ +}}ring
// CHECK-LABEL: func.func @small
// CHECK-NEXT:    shard.all_gather
// CHECK-LABEL: func.func @large
// CHECK-NOT:     shard.all_gather
// CHECK-COUNT-7: shard.shift
// CHECK-NOT:     shard.all_gather
// GPU:        // shard-decompose-all-gather{strategy=auto target=gpu}: modeled times
// GPU:        // tensor<8x32xf32> over @m [0]    8  {{.*}} ring
// GPU-NEXT:   // tensor<64x256xf32> over @m [0]  8  {{.*}} ring

shard.grid @m(shape = 8)
func.func @small(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %0 = shard.all_gather %x on @m grid_axes = [0] gather_axis = 0 : tensor<8x32xf32> -> tensor<64x32xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
  func.return %1 : tensor<64x16xf32>
}
func.func @large(%x: tensor<64x256xf32>, %w: tensor<256x128xf32>) -> tensor<512x128xf32> {
  %0 = shard.all_gather %x on @m grid_axes = [0] gather_axis = 0 : tensor<64x256xf32> -> tensor<512x256xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<512x256xf32>, tensor<256x128xf32>) -> tensor<512x128xf32>
  func.return %1 : tensor<512x128xf32>
}
