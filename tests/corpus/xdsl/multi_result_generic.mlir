"builtin.module"() ({
  "func.func"() <{function_type = () -> (i32, i32), sym_name = "two"}> ({
    %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %1 = "arith.constant"() <{value = 2 : i32}> : () -> i32
    "func.return"(%0, %1) : (i32, i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = () -> i32, sym_name = "caller"}> ({
    %0:2 = "func.call"() <{callee = @two}> : () -> (i32, i32)
    %1 = "arith.muli"(%0#0, %0#1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    "func.return"(%1) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
