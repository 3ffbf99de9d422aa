print("tether-bench")
