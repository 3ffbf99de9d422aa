import Foundation
import Testing
import TetherTestSupport

@testable import TetherJSON

/// Number parsing: exact integers, big numbers kept as text, and doubles that match `Double(String)` bit for bit.
@Suite(.timeLimit(.minutes(5)))
struct NumberTests {
    func number(_ text: String) throws -> JSON.Number {
        try #require(try JSON(parsing: text).number, "\(text) is a number")
    }

    /// The reference: how a number's text must be stored.
    func expectedStorage(_ text: String) -> JSON.Number.Storage {
        let isInteger = !text.contains { $0 == "." || $0 == "e" || $0 == "E" }
        if isInteger {
            if text == "-0" { return .double(-0.0) }  // integers have no negative zero: a double keeps the sign
            if let value = Int64(text) { return .int(value) }
            if let value = UInt64(text) { return .uint(value) }
            return .text(text)
        }
        let value = Double(text)!
        return value.isFinite ? .double(value) : .text(text)
    }

    func expectStorage(of text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let parsed = try number(text)
        let expected = expectedStorage(text)
        switch (parsed.storage, expected) {
        case (.double(let a), .double(let b)):
            #expect(a.bitPattern == b.bitPattern, "\(text): \(a) vs \(b)", sourceLocation: sourceLocation)
        default:
            #expect(parsed.storage == expected, "\(text)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Integers

    @Test func int64LimitsAreExact() throws {
        let min = try number("-9223372036854775808")
        #expect(min.storage == .int(Int64.min))
        #expect(min.int64 == Int64.min)
        #expect(min.int == Int.min)
        #expect(min.description == "-9223372036854775808")

        let max = try number("9223372036854775807")
        #expect(max.storage == .int(Int64.max))
        #expect(max.int64 == Int64.max)
        #expect(max.uint64 == UInt64(Int64.max))

        // One past either end no longer fits Int64.
        let belowMin = try number("-9223372036854775809")
        #expect(belowMin.storage == .text("-9223372036854775809"))
        #expect(belowMin.int64 == nil)
        let aboveMax = try number("9223372036854775808")
        #expect(aboveMax.storage == .uint(UInt64(Int64.max) + 1))
        #expect(aboveMax.int64 == nil)
        #expect(aboveMax.int == nil)
    }

    @Test func uint64MaxIsExactAndOnePastIsKeptAsText() throws {
        let max = try number("18446744073709551615")
        #expect(max.storage == .uint(UInt64.max))
        #expect(max.uint64 == UInt64.max)
        #expect(max.int64 == nil)
        #expect(max.double == 18_446_744_073_709_551_615.0)
        #expect(max.isInteger)

        let text = "18446744073709551616"
        let past = try number(text)
        #expect(past.storage == .text(text))
        #expect(past.uint64 == nil)
        #expect(past.int64 == nil)
        #expect(past.isInteger)
        #expect(past.double == 18_446_744_073_709_551_616.0)
        // Round trip: the text comes back unchanged and reads back as the same number.
        #expect(past.description == text)
        #expect(try number(past.description) == past)
        #expect(JSON.Number(text: text) == past)
    }

    @Test func twentyDigitIdsSurviveARoundTrip() throws {
        for id in ["12345678901234567890", "98765432109876543210", "10000000000000000000", "99999999999999999999"] {
            let json = try JSON(parsing: #"{"id": \#(id), "next": [\#(id)]}"#)
            #expect(json["id"].number?.description == id)
            #expect(json["next"][0].number?.description == id)
            #expect(json["id"].number?.isInteger == true)
            try expectStorage(of: id)
        }
        let longer = "-237462374673276894279832749832423479823246327846"
        #expect(try number(longer).description == longer)
    }

    @Test func integersAroundTheSixtyFourBitLimitsMatchTheStandardLibrary() throws {
        var rng = SeededRandom(seed: 0x7E7E)
        var texts = [
            "0", "-0", "1", "-1", "9", "10", "999999999999999999", "1000000000000000000", "9999999999999999999",
            "10000000000000000000", "18446744073709551614", "18446744073709551617", "18446744073709551625",
            "18446744073709551715", "36893488147419103231", "100000000000000000000", "-18446744073709551615",
        ]
        for _ in 0..<1000 {
            let value = rng.next()
            texts.append(String(value))
            texts.append("-" + String(value >> (value & 63)))
            // Nineteen to twenty-two digits, across the UInt64 limit.
            let digits = 19 + Int(rng.next() % 4)
            texts.append(
                String((0..<digits).map { i in Character(String(i == 0 ? 1 + rng.next() % 9 : rng.next() % 10)) }))
        }
        for text in texts { try expectStorage(of: text) }
    }

    @Test func negativeZero() throws {
        // `-0` keeps its sign: integers have none, so it is the double -0.0, as `-0.0` and `-0e5` are.
        let zero = try number("-0")
        #expect(zero.storage == .double(-0.0))
        #expect(zero.double.sign == .minus)
        #expect(zero.int == 0)
        #expect(zero.int64 == 0)
        #expect(!zero.isInteger)
        #expect(zero.description == "-0.0")
        #expect(try number("0").storage == .int(0))
        let double = try number("-0.0")
        #expect(double.double == 0)
        #expect(double.double.sign == .minus)
        #expect(!double.isInteger)
        #expect(try number("-0e5").double.sign == .minus)
        #expect(try number("-0.000e-400").double.sign == .minus)
        #expect(try JSON(parsing: "[-0]").text() == "[-0.0]")
        #expect(try TetherJSONDecoder().decode([Int].self, from: Data("[-0]".utf8)) == [0])
        #expect(try TetherJSONDecoder().decode([Double].self, from: Data("[-0]".utf8))[0].sign == .minus)
    }

    // MARK: - Doubles

    @Test func wellKnownDoublesAreExact() throws {
        let cases: [(String, Double)] = [
            ("0.1", 0.1), ("-0.1", -0.1), ("1e-7", 1e-7), ("1E-7", 1e-7), ("5e-324", .leastNonzeroMagnitude),
            ("2.2250738585072014e-308", .leastNormalMagnitude),
            ("2.2250738585072011e-308", Double(bitPattern: 0x000F_FFFF_FFFF_FFFF)),
            ("1.7976931348623157e308", .greatestFiniteMagnitude),
            ("-1.7976931348623157e+308", -.greatestFiniteMagnitude),
            ("0.30000000000000004", 0.1 + 0.2), ("3.141592653589793", .pi), ("1e22", 1e22), ("1e23", 1e23),
            ("9007199254740993e-22", 9007199254740993e-22), ("1.0", 1), ("2.5e-3", 0.0025), ("0.000001", 1e-6),
        ]
        for (text, value) in cases {
            let parsed = try number(text)
            #expect(parsed.storage == .double(value), "\(text)")
            #expect(parsed.double.bitPattern == value.bitPattern, "\(text)")
            #expect(!parsed.isInteger)
        }
    }

    @Test func numbersBeyondDoubleAreKeptAsText() throws {
        for text in ["1e309", "-1e309", "1.8e308", "123123e100000", "1.5e+9999", "-1e+9999"] {
            let parsed = try number(text)
            #expect(parsed.storage == .text(text))
            #expect(parsed.description == text)
            #expect(!parsed.isInteger, "\(text) has an exponent")
            #expect(parsed.double == (text.hasPrefix("-") ? -.infinity : .infinity))
            #expect(parsed.int64 == nil)
        }
    }

    @Test func underflowBecomesZero() throws {
        for text in ["123e-10000000", "1e-400", "123.456e-789", "-1e-400", "0e99999999"] {
            let parsed = try number(text)
            #expect(parsed.double == 0, "\(text)")
            #expect(parsed.double.sign == (text.hasPrefix("-") ? .minus : .plus))
            #expect(!parsed.isInteger)
        }
        // The smallest subnormal and half of it.
        #expect(try number("4.9406564584124654e-324").double == .leastNonzeroMagnitude)
        #expect(try number("2.4703282292062327e-324").double == 0)
        #expect(try number("2.4703282292062328e-324").double == .leastNonzeroMagnitude)
    }

    @Test func randomDoublesReadBackBitForBit() throws {
        var rng = SeededRandom(seed: 20_260_101)
        var checked = 0
        while checked < 4000 {
            let value = Double(bitPattern: rng.next())
            guard value.isFinite else { continue }
            let text = value.description
            let parsed = try number(text)
            let reference = try #require(Double(text))
            #expect(parsed.double.bitPattern == reference.bitPattern, "\(text)")
            #expect(parsed.double.bitPattern == value.bitPattern, "\(text)")
            checked += 1
        }
    }

    @Test func randomShortDecimalsMatchTheStandardLibrary() throws {
        // Numbers like API prices and coordinates, mostly on the fast path (few digits, small exponents).
        var rng = SeededRandom(seed: 42)
        for _ in 0..<3000 {
            let digits = 1 + Int(rng.next() % 17)
            var mantissa = String((0..<digits).map { _ in Character(String(rng.next() % 10)) })
            let point = Int(rng.next() % UInt64(digits + 1))
            if point > 0, point < digits {
                let index = mantissa.index(mantissa.startIndex, offsetBy: point)
                mantissa.insert(".", at: index)
            }
            // Strip leading zeros of the integer part, which JSON forbids.
            while mantissa.count > 1, mantissa.hasPrefix("0"), !mantissa.hasPrefix("0.") { mantissa.removeFirst() }
            if mantissa.hasPrefix(".") { mantissa = "0" + mantissa }
            if !mantissa.contains(".") { mantissa += ".0" }
            let sign = rng.next() % 2 == 0 ? "" : "-"
            let exponent = rng.next() % 3 == 0 ? "e\(Int(rng.next() % 61) - 30)" : ""
            try expectStorage(of: sign + mantissa + exponent)
        }
    }

    @Test func randomLongDecimalsMatchTheStandardLibrary() throws {
        // Many digits and wide exponents: the slow path, overflow to text and underflow to zero.
        var rng = SeededRandom(seed: 7)
        for _ in 0..<3000 {
            let digits = 1 + Int(rng.next() % 40)
            let integer = String(
                (0..<digits).map { i in Character(String(i == 0 ? 1 + rng.next() % 9 : rng.next() % 10)) })
            let fraction = String((0..<Int(rng.next() % 30)).map { _ in Character(String(rng.next() % 10)) })
            let exponent = Int(rng.next() % 700) - 350
            var text = integer
            if !fraction.isEmpty { text += "." + fraction }
            text +=
                (rng.next() % 2 == 0 ? "e" : "E") + (exponent >= 0 && rng.next() % 2 == 0 ? "+" : "") + "\(exponent)"
            try expectStorage(of: text)
        }
    }

    @Test func fastPathBoundariesMatchTheStandardLibrary() throws {
        // 2^53 and its neighbours, and exponents just inside and outside ±22.
        let mantissas = [
            "9007199254740991", "9007199254740992", "9007199254740993", "1", "123456789", "9999999999999999999",
        ]
        for mantissa in mantissas {
            for exponent in [-24, -23, -22, -21, -1, 0, 1, 21, 22, 23, 24] {
                try expectStorage(of: "\(mantissa)e\(exponent)")
                try expectStorage(of: "-\(mantissa).0e\(exponent)")
                try expectStorage(of: "0.\(mantissa)e\(exponent)")
            }
        }
        // Leading zeros of a fraction are not significant digits.
        try expectStorage(of: "0.00000000000000000000000000001234567890123456789")
        try expectStorage(of: "0.000000000000000000001")
    }

    // MARK: - Integer views of doubles

    @Test func wholeDoublesConvertToIntegers() throws {
        #expect(try JSON(parsing: "3.0").int == 3)
        #expect(try JSON(parsing: "3.5").int == nil)
        #expect(try JSON(parsing: "1e2").int == 100)
        #expect(try JSON(parsing: "-2.0").int64 == -2)
        #expect(try JSON(parsing: "-2.0").uint64 == nil)
        #expect(try JSON(parsing: "1e19").int64 == nil)
        #expect(try JSON(parsing: "1e19").uint64 == 10_000_000_000_000_000_000)
        #expect(try JSON(parsing: "9.223372036854775807e18").int64 == nil)  // rounds to 2^63
        #expect(try JSON(parsing: "-9.223372036854775808e18").int64 == Int64.min)
        #expect(try JSON(parsing: "0.5e1").int == 5)
        #expect(try JSON(parsing: "3").double == 3.0)
        #expect(try JSON(parsing: "-3").uint64 == nil)
        #expect(try JSON(parsing: "1e400").int == nil)
    }

    @Test func integerAndDoubleSpellingsStayApart() throws {
        #expect(try JSON(parsing: "1") != JSON(parsing: "1.0"))
        #expect(try JSON(parsing: "1.0") == JSON(parsing: "1e0"))
        #expect(try JSON(parsing: "1") == JSON(1))
        #expect(JSON.Number(UInt64(5)) == JSON.Number(Int64(5)))
        #expect(JSON.Number(UInt64.max).storage == .uint(UInt64.max))
        #expect(try number("1").isInteger)
        #expect(try !number("1.0").isInteger)
        #expect(try !number("1e0").isInteger)
    }

    // MARK: - Number(text:)

    @Test func numberFromTextAcceptsOnlyOneWholeNumber() {
        #expect(JSON.Number(text: "12")?.storage == .int(12))
        #expect(JSON.Number(text: "-1.5e3")?.storage == .double(-1500))
        #expect(JSON.Number(text: "123456789012345678901234")?.storage == .text("123456789012345678901234"))
        for invalid in [
            "", "-", " 1", "1 ", "01", "+1", "1.", ".5", "1e", "1e+", "NaN", "Infinity", "0x10", "1_000", "١",
        ] {
            #expect(JSON.Number(text: invalid) == nil, "\(invalid)")
        }
    }
}
