import Foundation
import Testing

@testable import TetherCLI
@testable import TetherServer

/// `tether image`: a picture printed as half blocks (or a graphics protocol), and its failures' exit codes.
@Suite struct ImageCommandTests {
    /// Runs `tether` on a thread of its own (the command blocks its thread while the pipeline loads).
    private func run(_ arguments: String..., variables: [String: String] = ["TERM": "xterm-256color"]) async
        -> CLIResult
    {
        // The image cache goes to a temporary folder, never the user's.
        var variables = variables
        variables["XDG_CACHE_HOME"] =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "tether-image-tests-cache"
            ).path
        let bound = variables
        return await withCheckedContinuation { continuation in
            Thread {
                let result = APIEnvironment.$boundVariables.withValue(bound) { tether(arguments: arguments) }
                continuation.resume(returning: result)
            }.start()
        }
    }

    /// A PNG file of a red square above a blue one (8 × 16 pixels).
    private func pictureFile(in directory: TemporaryDirectory) throws -> String {
        var rgb = [UInt8]()
        for y in 0..<16 { for _ in 0..<8 { rgb += y < 8 ? [255, 0, 0] : [0, 0, 255] } }
        let png = try #require(PNGEncoder.encode(width: 8, height: 16, rgb: rgb))
        let file = directory.url.appendingPathComponent("picture.png")
        try Data(png).write(to: file)
        return file.path
    }

    @Test func aFileIsPrintedAsHalfBlocks() async throws {
        let directory = try TemporaryDirectory()
        let file = try pictureFile(in: directory)
        let result = await run("image", file, "--width", "4", "--protocol", "blocks")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4)  // 4 × 8 pixels in half blocks
        #expect(lines[0].contains("38;5;196;48;5;196m▀▀▀▀"))
        #expect(lines[3].contains("38;5;21;48;5;21m▀▀▀▀"))
        let trueColor = await run(
            "image", file, "--width", "2", "--protocol", "blocks", variables: ["COLORTERM": "truecolor"])
        #expect(trueColor.stdout.hasPrefix("\u{1B}[0;38;2;255;0;0;48;2;255;0;0m▀▀"))
    }

    @Test func noColorPrintsNoPicture() async throws {
        let directory = try TemporaryDirectory()
        let result = await run(
            "image", try pictureFile(in: directory), "--protocol", "blocks", variables: ["NO_COLOR": "1"])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("shows no pictures"))
    }

    @Test func kittyAndSixelOnRequest() async throws {
        let directory = try TemporaryDirectory()
        let file = try pictureFile(in: directory)
        #expect(await run("image", file, "--protocol", "kitty").stdout.hasPrefix("\u{1B}_Ga=T,f=32,s=8,v=16"))
        #expect(await run("image", file, "--protocol", "sixel").stdout.hasPrefix("\u{1B}Pq\"1;1;8;16"))
        #expect(await run("image", file, "--protocol", "iterm").stdout.hasPrefix("\u{1B}]1337;File=inline=1"))
    }

    @Test func failuresExitWithOneAndMistakesWithTwo() async throws {
        let directory = try TemporaryDirectory()
        let missing = await run("image", directory.url.appendingPathComponent("none.png").path)
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("tether: ") && missing.stderr.contains("could not be read"))
        let text = directory.url.appendingPathComponent("text.png")
        try Data("hello".utf8).write(to: text)
        let notAnImage = await run("image", text.path, "--protocol", "blocks")
        #expect(notAnImage.status == 1 && notAnImage.stderr.contains("not a JPEG or PNG"))
        #expect(await run("image").status == 2)
        #expect(await run("image", "a", "b").status == 2)
        #expect(await run("image", "a", "--width", "0").status == 2)
        #expect(await run("image", "a", "--protocol", "braille").status == 2)
        #expect(await run("image", "--help").stdout.hasPrefix("USAGE: tether image"))
    }
}
