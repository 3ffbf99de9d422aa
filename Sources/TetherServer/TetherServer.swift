/// The local API server. See ARCHITECTURE.md.
public enum TetherServerModule {}
