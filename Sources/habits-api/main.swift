print("habits-api: not built yet")
