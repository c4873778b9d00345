print("habits-dashboard: not built yet")
