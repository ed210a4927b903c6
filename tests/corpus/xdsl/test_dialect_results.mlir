%0:3 = "test.op"() : () -> (i32, i32, i32)
%a, %b = "test.op"() : () -> (f32, f32)
%r:2 = "test.op"(%0#2, %a) : (i32, f32) -> (i64, i64)
%r_0:2 = "test.op"() : () -> (index, index)
"test.op"(%r#0, %r#1, %r_0#1, %b) : (i64, i64, index, f32) -> ()
%1 = "test.op"() ({
^bb0(%x: i32, %y: i32):
  %2:2 = "test.op"(%y, %x) : (i32, i32) -> (i32, i32)
  "test.termop"(%2#1) : (i32) -> ()
}) : () -> i1
