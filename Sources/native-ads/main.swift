print("native-ads")
