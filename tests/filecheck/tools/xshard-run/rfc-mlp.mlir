// The RFC walkthrough end to end: the 1-D weight-stationary MLP of examples/ on 2
// simulated devices matches the program on one device, with one all_gather of the
// split input (2x4x4 f32) and one reduce_scatter of the partial output (2x4x8 f32).
// RUN: xshard-run %S/../../../../examples/mlp_1d.mlir --devices 2 --json | filecheck %s
// RUN: xshard-run %S/../../../../examples/mlp_1d.mlir --devices 2 | filecheck %s --check-prefix=TABLE

// CHECK: {"match": true, "max_abs_error": {{[0-9.e-]+}}, "devices": 2, "collectives": [{"op": "all_gather", "count": 1, "bytes": 128}, {"op": "reduce_scatter", "count": 1, "bytes": 256}], "total_collective_bytes": 384}

// TABLE:      devices: 2   match: yes   max |error|: {{.*}}
// TABLE-NEXT: collective              count  bytes (one device)
// TABLE-NEXT: all_gather                  1                 128
// TABLE-NEXT: reduce_scatter              1                 256
// TABLE-NEXT: total                       2                 384
