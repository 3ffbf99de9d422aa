/// The commands of the `tether` executable.
public enum TetherCLI {
    public static func main() {}
}
