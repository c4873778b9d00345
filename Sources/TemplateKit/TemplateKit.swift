/// The template engine. Filled in by the dashboard issue.
public enum TemplateKitModule {}
