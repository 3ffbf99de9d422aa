import Foundation
import Testing
import TetherTestSupport

@testable import TetherJSON

/// Writing doubles: the shortest text that reads back bit for bit, in the same form as Swift's `description`.
@Suite(.timeLimit(.minutes(5)))
struct NumberWritingTests {
    func written(_ value: Double) -> String {
        JSONNumberFormatter.text(for: value)
    }

    /// A non-finite number has no JSON text; its description is Swift's, and writing it is never out of bounds.
    @Test func nonFiniteNumbersDescribeThemselvesAsSwiftDoes() {
        #expect(JSON.Number(Double.infinity).description == "inf")
        #expect(JSON.Number(-Double.infinity).description == "-inf")
        #expect(JSON.Number(Double.nan).description == "nan")
    }

    @Test func formMatchesDescription() {
        let values: [Double] = [
            0, -0.0, 1, -1, 3, 0.1, 0.2, 0.3, 1.5, 100, 1234.5, 1e15, 1e16, 1e17, 1e21, 1e22, 1e23, 1e100, 1e-4, 1e-5,
            1.2e-4, 0.00012, 0.001, 1e-7, 1.5e-5, 0x1p53, 0x1p53 + 2, 0x1p54, 9_007_199_254_740_991, 123_456_789,
            .pi, .ulpOfOne, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
            .leastNonzeroMagnitude * 2, .leastNonzeroMagnitude * 3, Double(bitPattern: 0x000F_FFFF_FFFF_FFFF),
            Double(bitPattern: 2), Double(bitPattern: 3),
            4.35679936e-8, 9.109375e-31, 1.7976931348623157e308, 2e16, 12_345_678_901_234_567.0,
        ]
        for value in values {
            #expect(written(value) == value.description, "\(value)")
            #expect(written(-value) == (-value).description, "\(-value)")
        }
        #expect(written(1) == "1.0")
        #expect(written(1e21) == "1e+21")
        #expect(written(1e-7) == "1e-07")
        #expect(written(-0.0) == "-0.0")
        #expect(written(.leastNonzeroMagnitude) == "5e-324")
        for bits in 1..<UInt64(5000) {
            let value = Double(bitPattern: bits)
            #expect(written(value) == value.description)
        }
    }

    @Test func randomBitPatternsMatchDescriptionAndReadBack() throws {
        var rng = SeededRandom(seed: 0x5C0B)
        var checked = 0
        while checked < 100_000 {
            let value = Double(bitPattern: rng.next())
            guard value.isFinite else { continue }
            let text = written(value)
            #expect(text == value.description)
            let parsed = try #require(JSON.Number(text: text))
            #expect(parsed.double.bitPattern == value.bitPattern, "\(text)")
            checked += 1
        }
    }

    @Test func powersOfTwoAndTenAndShortDecimalsMatchDescription() {
        var values: [Double] = []
        for e in -1074...1023 { values.append(Double(sign: .plus, exponent: e, significand: 1)) }
        var power = 1.0
        for _ in 0..<308 {
            values.append(power)
            power *= 10
        }
        var rng = SeededRandom(seed: 0xDEC)
        for _ in 0..<20_000 {
            // Few digits at many scales, as prices and coordinates are written.
            let digits = Double(rng.next() % 100_000_000)
            let scale = Double(sign: .plus, exponent: 0, significand: 1) * pow(10, Double(Int(rng.next() % 40) - 20))
            values.append(digits * scale)
            values.append(digits / 1000)
        }
        for value in values {
            #expect(written(value) == value.description, "\(value)")
        }
    }

    @Test func writerAndNumberDescriptionUseIt() throws {
        #expect(
            try JSON.array([.number(.init(0.1)), .number(.init(1e300)), .number(.init(2.0))]).text()
                == "[0.1,1e+300,2.0]")
        #expect(JSON.Number(1e-7).description == "1e-07")
    }

    /// Every double in `json`, in document order.
    static func doubles(in json: JSON) -> [Double] {
        var doubles: [Double] = []
        func collect(_ value: JSON) {
            switch value {
            case .array(let elements): elements.forEach(collect)
            case .object(let object): object.values.forEach(collect)
            case .number(let number):
                if case .double(let d) = number.storage { doubles.append(d) }
            default: break
            }
        }
        collect(json)
        return doubles
    }

    @Test(.enabled(if: SharedFixtures.hasBenchmarkFiles))
    func canadaDoublesRoundTripBitForBit() throws {
        let data = try SharedFixtures.benchmarkFile("canada.json")
        let json = try JSON(parsing: data)
        let doubles = Self.doubles(in: json)
        #expect(doubles.count > 100_000)
        let reread = try JSON(parsing: try json.bytes())
        #expect(reread == json)
        #expect(Self.doubles(in: reread).map(\.bitPattern) == doubles.map(\.bitPattern))
        // And each agrees with the standard library's reading of the original text.
        for value in doubles.prefix(20_000) {
            #expect(Double(value.description)?.bitPattern == value.bitPattern)
        }
    }
}
