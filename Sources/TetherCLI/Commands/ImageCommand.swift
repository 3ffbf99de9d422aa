import Foundation
import TetherImages
import TetherSync
import TetherTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tether image <url|file> [--width N] [--protocol P]`: prints one picture in the terminal.
///
/// ```text
/// $ tether image https://example.com/photo.jpg --width 40
/// ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀   (in colour)
/// ```
///
/// The picture is loaded and decoded by an ``ImagePipeline`` and drawn the best way the terminal supports
/// (``TerminalGraphics``): kitty, iTerm2 or sixel graphics when the environment or the terminal's answer to a
/// query says so, else half blocks in 24-bit or 256 colours; nothing under `NO_COLOR` or `TERM=dumb`.
enum ImageCommand: Command {
    static let name = "image"
    static let summary = "Print a picture in the terminal"
    static let synopsis = "<url|file> [--width N]"

    static let help = """
        USAGE: tether image <url|file> [--width N] [--protocol auto|blocks|kitty|iterm|sixel]

        Loads a JPEG or PNG picture from a URL (http, https, file) or a file and prints it in the
        terminal, fitted into N columns (the aspect ratio kept; never enlarged past one terminal
        column per pixel for half blocks). The terminal's best way is used: the kitty graphics
        protocol, iTerm2 inline images or sixel graphics when the terminal says it has them
        (environment variables, and a query it answers within 150 ms), otherwise Unicode half
        blocks in 24-bit colour (COLORTERM=truecolor) or 256 colours. Nothing is drawn under
        NO_COLOR or TERM=dumb.

        Exit code 0 when the picture was printed (or the terminal shows none); 1 when it cannot
        be loaded or decoded (not found, not an image, damaged, too large); 2 for a wrong command
        line.

        OPTIONS:
          --width <n>              Columns, 1 to 1000 (default: the terminal's width, at most 80)
          --protocol <p>           auto (default), blocks, kitty, iterm or sixel
          -h, --help               Show this help

        """

    /// A command line read.
    struct Options: Equatable, Sendable {
        var url: URL
        var columns: Int?
        var graphics: String
    }

    static func parse(_ arguments: ArraySlice<String>) throws(CLIError) -> Options? {
        let reader = try OptionReader(
            arguments, flags: [], options: ["--width", "--protocol"], command: "tether image")
        if reader.helpRequested { return nil }
        guard let target = reader.positionals.first else {
            throw .usage("missing the picture's URL or file", hint: reader.hint)
        }
        if let extra = reader.positionals.dropFirst().first {
            throw .usage("unexpected argument '\(extra)'", hint: reader.hint)
        }
        let columns = try reader.integer("--width", in: 1...1000)
        let graphics = reader.value("--protocol") ?? "auto"
        guard ["auto", "blocks", "kitty", "iterm", "sixel"].contains(graphics) else {
            throw .usage("--protocol must be auto, blocks, kitty, iterm or sixel, not '\(graphics)'", hint: reader.hint)
        }
        let url: URL
        let lowered = target.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("file:") {
            guard let parsed = URL(string: target) else { throw .usage("'\(target)' is not a URL", hint: reader.hint) }
            url = parsed
        } else {
            url = URL(fileURLWithPath: target)
        }
        return Options(url: url, columns: columns, graphics: graphics)
    }

    static func run(_ arguments: ArraySlice<String>, console: Console) throws(CLIError) -> Int32 {
        guard let options = try parse(arguments) else {
            console.print(help)
            return ExitCode.success
        }
        let environment = APIEnvironment.variables
        let isTerminal = isatty(STDOUT_FILENO) == 1
        let graphics = chooseGraphics(options.graphics, environment: environment, isTerminal: isTerminal)
        let columns = options.columns ?? min(terminalColumns(environment: environment), 80)
        // Half blocks: one pixel per column, two per row. Graphics protocols: about 10 pixels per column.
        let box: ImageSize
        switch graphics {
        case .kitty, .iTerm2, .sixel: box = ImageSize(width: columns * 10, height: columns * 20)
        case .halfBlocks, .none: box = ImageSize(width: columns, height: columns * 2)
        }
        let pipeline = ImagePipelines.make(environment: environment)
        let image = try load(options.url, size: box, pipeline: pipeline)
        // The original bytes' disk write is queued; let it land before the process ends.
        pipeline.client.configuration.cache?.flush()
        guard graphics != .none else {
            console.printError("tether: this terminal shows no pictures (NO_COLOR, TERM=dumb or not a terminal)\n")
            return ExitCode.success
        }
        let pixels = TerminalPixels(width: image.width, height: image.height, rgba: image.pixels)
        switch graphics {
        case .kitty:
            console.writeOutput(KittyGraphics.sequence(pixels, columns: min(columns, image.width), rows: 0) + [0x0A])
        case .iTerm2:
            console.writeOutput(ITermGraphics.sequence(pixels, columns: min(columns, image.width)) + [0x0A])
        case .sixel:
            console.writeOutput(SixelEncoder.sequence(pixels) + [0x0A])
        case .halfBlocks(let mode):
            console.writeOutput(HalfBlockImage.ansi(pixels, colorMode: mode))
        case .none:
            break
        }
        return ExitCode.success
    }

    /// The way to draw: the one asked for, or the terminal's best (querying it when both standard input and
    /// output are terminals).
    static func chooseGraphics(_ asked: String, environment: [String: String], isTerminal: Bool) -> TerminalGraphics {
        // An explicit protocol is for a terminal the detection does not know, or for a pipe (a test, a file).
        let mode = ColorMode.detect(environment: environment, isTerminal: isTerminal || asked != "auto")
        guard mode != .monochrome else { return .none }
        switch asked {
        case "blocks": return .halfBlocks(mode)
        case "kitty": return .kitty
        case "iterm": return .iTerm2
        case "sixel": return .sixel
        default:
            let known = TerminalGraphics.detect(environment: environment, colorMode: mode)
            guard case .halfBlocks = known, isTerminal, environment["TMUX"] == nil else { return known }
            let reply = TerminalGraphics.queryTerminal(timeout: .milliseconds(150))
            return TerminalGraphics.detect(environment: environment, colorMode: mode, queryReply: reply)
        }
    }

    /// The terminal's width: `TIOCGWINSZ` on standard output, else `COLUMNS`, else 80.
    static func terminalColumns(environment: [String: String]) -> Int {
        var window = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 { return Int(window.ws_col) }
        return environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 80
    }

    /// Loads and decodes the picture, blocking the calling thread (a command's, never the pool's).
    private static func load(_ url: URL, size: ImageSize, pipeline: ImagePipeline) throws(CLIError) -> RGBAImage {
        do throws(ImageError) {
            return try runBlocking { () async throws(ImageError) in try await pipeline.image(for: url, size: size) }
        } catch {
            var message = error.message
            if message.hasSuffix(".") { message.removeLast() }
            throw .failure("\(url.isFileURL ? url.path : url.absoluteString): \(message)")
        }
    }
}
