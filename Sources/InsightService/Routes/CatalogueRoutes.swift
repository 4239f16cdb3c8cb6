import HTTPServer
import InsightCrypto
import InsightCore
import JSONStream

/// `GET /v1/models` (any key) and `GET /v1/signing-keys` (public).
struct CatalogueRoutes: Sendable {
    let access: RouteAccess
    let models: any ModelProvider
    let signer: PayloadSigner

    func register(in router: inout Router) {
        let routes = self
        router.add(.get, "/v1/models", options: access.getOptions(roles: Set(KeyRole.allCases))) { request, _ in
            try routes.listModels(request)
        }
        router.add(.get, "/v1/signing-keys") { _, _ in routes.signingKeys() }
    }

    func listModels(_ request: HTTPRequest) throws -> HTTPResponse {
        _ = try access.principal(request, roles: Set(KeyRole.allCases), now: Clock.nowMilliseconds())
        let listing = models.currentSnapshot().listing
        var writer = JSONWriter(capacity: 2048)
        writer.beginObject()
        writer.key("insights")
        writer.beginArray()
        let types = Array(Set(listing.map(\.insightType))).sorted()
        for type in types {
            writer.beginObject()
            writer.member("insightType", type)
            writer.key("schemas")
            writer.beginArray()
            writer.string(InsightType.supportedSchema)
            writer.endArray()
            writer.key("categories")
            writer.beginArray()
            for category in OperationCategory.allCases {
                let versions = listing.filter { $0.insightType == type && $0.category == category }
                guard !versions.isEmpty else { continue }
                writer.beginObject()
                writer.member("operationCategory", category.rawValue)
                writer.member("currentVersion", versions.first { $0.status == "current" }?.version)
                writer.key("versions")
                writer.beginArray()
                for version in versions {
                    writer.beginObject()
                    writer.member("version", version.version)
                    writer.member("status", version.status)
                    writer.key("features")
                    writer.beginArray()
                    for feature in version.features { writer.string(feature) }
                    writer.endArray()
                    writer.endObject()
                }
                writer.endArray()
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return .json(.ok, writer.bytes)
    }

    func signingKeys() -> HTTPResponse {
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.key("keys")
        writer.beginArray()
        for key in signer.publishedKeys {
            let coordinates = key.publicKey.jwk
            writer.beginObject()
            writer.member("kid", key.kid)
            writer.member("kty", "EC")
            writer.member("crv", "P-256")
            writer.member("alg", "ES256")
            writer.member("use", "sig")
            writer.member("x", coordinates.x)
            writer.member("y", coordinates.y)
            writer.member("createdAt", Timestamp.iso8601(milliseconds: key.signsFromMilliseconds))
            writer.member("status", key.status.rawValue)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        // Public, but a cache must ask again each time: after a rotation (and SIGHUP) the new key signs at once,
        // and a verifier that meets its kid must find it (docs/SIGNED-PAYLOAD.md). The entity tag lets it ask
        // with If-None-Match and be told 304 while the set is unchanged; it changes with any key or status.
        var headers = HTTPFields()
        headers.set("Cache-Control", "no-cache")
        headers.set("ETag", "\"" + String(SHA256.hex(writer.bytes).prefix(32)) + "\"")
        return .json(.ok, writer.bytes, headers: headers)
    }
}
