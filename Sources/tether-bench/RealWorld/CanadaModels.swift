/// `canada.json`: the outline of Canada as a GeoJSON feature collection; coordinates are `[longitude, latitude]`
/// pairs of doubles, in rings, in polygons.
struct CanadaFeatureCollection: Codable, Equatable {
    var type: String
    var features: [Feature]

    struct Feature: Codable, Equatable {
        var type: String
        var properties: [String: String]
        var geometry: Geometry
    }

    struct Geometry: Codable, Equatable {
        var type: String
        var coordinates: [[[Double]]]
    }
}
