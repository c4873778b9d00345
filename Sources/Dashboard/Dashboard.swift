/// The dashboard app. Filled in by the dashboard issue.
public enum DashboardModule {}
