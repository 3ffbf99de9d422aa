package import Foundation

/// A value bound to a statement's parameter.
package enum DatabaseValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    package static func int(_ value: Int) -> DatabaseValue { .integer(Int64(value)) }
    package static func optionalText(_ value: String?) -> DatabaseValue { value.map { .text($0) } ?? .null }
    package static func optionalInt(_ value: Int?) -> DatabaseValue { value.map { .integer(Int64($0)) } ?? .null }
    package static func data(_ value: Data) -> DatabaseValue { .blob(Array(value)) }
}
