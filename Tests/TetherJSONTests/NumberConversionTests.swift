import Foundation
import Testing
import TetherTestSupport

@testable import TetherJSON

/// Decimal to double conversion at its edges: the cases from the float-parsing literature, exact ties,
/// subnormals, the largest and smallest values, many digits and exponents out of range. Every result is
/// compared bit for bit with the standard library's correctly rounded `Double(String)`.
@Suite(.timeLimit(.minutes(5)))
struct NumberConversionTests {
    /// The parsed number as a double: integers (`%.17g` writes whole values without a fraction) converted, and
    /// infinity for numbers kept as text because they are too large.
    func parsed(_ text: String) throws -> Double {
        let number = try #require(JSON.Number(text: text), "\(text) is a JSON number")
        return number.double
    }

    func expectStandard(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = try #require(Double(text), "\(text)")
        let value = try parsed(text)
        #expect(
            value.bitPattern == reference.bitPattern, "\(text): \(value) instead of \(reference)",
            sourceLocation: sourceLocation)
    }

    /// The decimal digits of `factor` × `base`^`exponent`.
    static func digits(of factor: UInt64, times base: UInt64, toThe exponent: Int) -> String {
        var digits: [UInt64] = String(factor).map { UInt64(String($0))! }.reversed()  // least significant first
        for _ in 0..<exponent {
            var carry: UInt64 = 0
            for i in digits.indices {
                let value = digits[i] * base + carry
                digits[i] = value % 10
                carry = value / 10
            }
            while carry > 0 {
                digits.append(carry % 10)
                carry /= 10
            }
        }
        return digits.reversed().map(String.init).joined()
    }

    @Test func casesFromTheLiterature() throws {
        let cases = [
            // The inputs that hung PHP and Java (2011) and their neighbours.
            "2.2250738585072012e-308", "2.2250738585072011e-308", "2.2250738585072014e-308",
            "2.2250738585072013e-308", "0.00022250738585072012e-304",
            // Exact ties between two doubles, and one digit past them.
            "9007199254740993", "9007199254740993.0", "9007199254740993.0000000000000000001",
            "9007199254740995", "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
            // From Paxson's and Lemire's hard cases and bug reports against other parsers.
            "7.038531e-26", "9.109375e-31", "8.98846567431158e307", "1.448997445238699", "3.518437208883201e13",
            "5.0216813883093446e-299", "7.1202e-199", "4.940656458412465441765687928682213723651e-324",
            "1.7976931348623157e308", "1.7976931348623158e308", "4.35679936e-8", "1.00000006e+09",
            "1.0000000000000002", "0.9999999999999999", "1e23", "8.589973e9", "123456789012345678e-5",
            "2.4354207e-39", "62.5364939768271845828", "3.0780199001602808e-33", "6.2214123456789e-6",
            "4.5e15", "4.503599627370497e15", "1090544144181609348671888949248", "1.2345678901234567890123456789",
            "358416272e-33", "2.225073858507201136057409796709131975934819546351645648e-308",
            "1438456663141390273526118207642235581183227845246331231162636653790368152091394196930365828634687637948157940776599182791387527135353034738357134110310609455693900824193549772792016543182680519740580354365467985440183598701312257624545562331397018329928613196125590274187720073914818062530830316533158098624984118889298281371812288789537310599037529113415438738954894752124724983067241108764488346454376699018673078404751121414804937224240805993123816932326223683090770561597570457793932985826162604255884529134126396282202126526253389383421806727954588525596114379801269094096329805054803089299736996870951258573010877404407451953846698609198213926882692078557033228265259305481198526059813164469187586693257335779522020407645498684263339921905227556616698129967412891282231685504660671277927198290009824680186319750978665734576683784255802269708917361719466043175201158849097881370477111850171579869056016061666173029059588433776015644439705050377554277696143928278093453792803846252715966016733222646442382892123940052441346822429721593884378212558701004356924243030059517489346646577724622498919752597382095222500311124181823512251071356181769376577651390028297796156208815375089159128394945710515861334486267101797497111125909272505194792870889617179758703442608016143343262159998149700606597792535574457560429226974273443630323818747730771316763398572110874959981923732463076884528677392654150010269822239401993427482376513231389212353583573566376915572650916866553612366187378959554983566712767093372906030188976220169058025354973622211666504549316958271880975697143546564469806791358707318873075708383345004090151974068325838177531266954177406661392229801349994695941509935655355652985723782153570084089560139142231.738475042362596875449154552392299548947138162081694168675340677843807613129780449323363759027012972466987370921816813162658754726545121090545507240267000456594786540949605260722461937870630634874991729398208026467698131898691830012167897399682179601734569071423681e-733",
        ]
        for text in cases { try expectStandard(text) }
        try expectStandard("-" + "2.2250738585072012e-308")
        #expect(JSON.Number(text: "9007199254740993")?.int64 == 9_007_199_254_740_993)
    }

    @Test func tiesAtTheEndsOfTheRange() throws {
        // Exactly half the smallest subnormal, 2^-1075 = 5^1075 / 10^1075, rounds to even (zero); any digit more
        // rounds up to the smallest subnormal.
        let fiveToThe1075 = Self.digits(of: 1, times: 5, toThe: 1075)
        let half = "0." + String(repeating: "0", count: 1075 - fiveToThe1075.count) + fiveToThe1075
        #expect(try parsed(half) == 0)
        #expect(try parsed(half + "1") == .leastNonzeroMagnitude)
        #expect(try parsed(half + "0000000000000000000000") == 0)
        let justBelow = String(half.dropLast()) + "4" + String(repeating: "9", count: 60)
        #expect(try parsed(justBelow) == 0)
        try expectStandard(half)
        try expectStandard(half + "1")
        // Halfway between the largest double and 2^1024, 2^970 × (2^54 − 1), rounds to even: to infinity, so the
        // number is kept as text; just below it is the largest double.
        let top = Self.digits(of: (1 << 54) - 1, times: 2, toThe: 970)
        let topNumber = try #require(JSON.Number(text: top))
        #expect(topNumber.storage == .text(top))
        let belowTop = String(top.dropLast(3)) + "000"
        #expect(try parsed(belowTop) == .greatestFiniteMagnitude)
        #expect(try parsed(belowTop + ".5") == .greatestFiniteMagnitude)
        try expectStandard(top + "e-1")
    }

    @Test func subnormalsAndTheLargestAndSmallestValues() throws {
        var values: [Double] = [
            .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
            .leastNormalMagnitude.nextDown, .leastNormalMagnitude.nextUp, .greatestFiniteMagnitude.nextDown,
            .leastNonzeroMagnitude.nextUp, 1, 1.0.nextUp, 1.0.nextDown,
        ]
        var rng = SeededRandom(seed: 0x5AB0)
        for _ in 0..<2000 {
            // Random subnormals: exponent field 0.
            values.append(Double(bitPattern: rng.next() & 0x000F_FFFF_FFFF_FFFF))
        }
        for value in values {
            for text in [value.description, String(format: "%.17g", value), String(format: "%.25e", value)] {
                try expectStandard(text)
                try expectStandard("-" + text)
                #expect(try parsed(text).bitPattern == value.bitPattern, "\(text)")
            }
        }
    }

    @Test func exponentsOutOfRange() throws {
        for text in [
            "1e-343", "1e-342", "9.9e-325", "2.5e-324", "1e308", "1e309", "0.01e311", "1000e306", "1e-99999",
            "1e+99999", "0.0000000000000000000000000000000000001e345", "12345678901234567890e-365",
            "12345678901234567890e290",
        ] {
            try expectStandard(text)
        }
        #expect(JSON.Number(text: "1e309")?.storage == .text("1e309"))
        #expect(JSON.Number(text: "1e-400")?.storage == .double(0))
        #expect(JSON.Number(text: "-1e-400")?.double.sign == .minus)
        #expect(JSON.Number(text: "0e400")?.storage == .double(0))
        #expect(JSON.Number(text: "0.0e-400")?.storage == .double(0))
    }

    @Test func manyDigits() throws {
        var rng = SeededRandom(seed: 0xD161)
        for _ in 0..<3000 {
            let count = 18 + Int(rng.next() % 60)
            var text = String((0..<count).map { i in Character(String(i == 0 ? 1 + rng.next() % 9 : rng.next() % 10)) })
            let point = 1 + Int(rng.next() % UInt64(count - 1))
            text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            text += "e\(Int(rng.next() % 640) - 320)"
            try expectStandard(text)
        }
        // Digits that continue a tie or nearly one, long after the 19th.
        for tail in ["", "0", "1", "00000000000000000000000000000001", "99999999999999999999999"] {
            try expectStandard("9007199254740993" + (tail.isEmpty ? "" : "." + tail))
            try expectStandard("4503599627370496.5" + tail)
            try expectStandard("4503599627370497.5" + tail)
        }
    }

    @Test func randomBitPatternsRoundTripThroughSeventeenDigits() throws {
        var rng = SeededRandom(seed: 0xB175)
        var checked = 0
        while checked < 20_000 {
            let value = Double(bitPattern: rng.next())
            guard value.isFinite else { continue }
            let text = String(format: "%.17g", value)
            #expect(try parsed(text).bitPattern == value.bitPattern, "\(text)")
            checked += 1
        }
    }

    @Test func randomDecimalsNearTies() throws {
        // Decimals in the middle between two neighbouring doubles, and a hair either side.
        var rng = SeededRandom(seed: 0x71E5)
        for _ in 0..<1000 {
            let value = Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF)
            let middle = String(format: "%.40e", (value / 2 + value.nextUp / 2))
            try expectStandard(middle)
        }
    }
}

/// A number too large for a `Double` is an error when decoded as one (as with Foundation's decoder), never an
/// infinity that the encoder could not write back: in a member, an array and an optional, short and long.
struct OutOfRangeDoubleDecodingTests {
    struct Rated: Codable {
        var rating: Double?
        var scores: [Double]?
        var weight: Float?
    }

    @Test(arguments: [
        #"{"rating": 1e400}"#, #"{"rating": -1e400}"#,
        #"{"rating": 4.51111111111111111111111111111111111111e111111111111111113}"#,
        #"{"scores": [1.5, 1e400]}"#, #"{"weight": 1e39}"#,
    ])
    func aNumberOutOfRangeIsADataCorruptedError(text: String) throws {
        let error = #expect(throws: DecodingError.self) {
            try TetherJSONDecoder().decode(Rated.self, from: Data(text.utf8))
        }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.debugDescription.contains("does not fit in"))
    }

    @Test func numbersInRangeStillDecode() throws {
        let text = #"{"rating": 1.7976931348623157e308, "scores": [0.5, -2, 1e-300], "weight": 3.4e38}"#
        let rated = try TetherJSONDecoder().decode(Rated.self, from: Data(text.utf8))
        #expect(rated.rating == .greatestFiniteMagnitude)
        #expect(rated.scores == [0.5, -2, 1e-300])
        #expect(rated.weight == 3.4e38)
    }
}
