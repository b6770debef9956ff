@_exported public import GeoConvCore
@_exported public import GeoConvEncodedPolyline
@_exported public import GeoConvGeoJSON
@_exported public import GeoConvWKT
@_exported public import GeoConvProjection
@_exported public import GeoConvKML
@_exported public import GeoConvGPX
@_exported public import GeoConvGeometry
