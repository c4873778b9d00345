/// The embedded Habits API. Filled in by the simulator issue.
public enum HabitsSimulatorModule {}
