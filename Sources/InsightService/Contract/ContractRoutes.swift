import HTTPServer

/// `GET /openapi.yaml`, public: the API contract. It is compiled into the binary (an `embedInCode` resource of
/// the repository's `openapi.yaml`), so the document always describes the build that serves it and an installed
/// binary needs no file beside it.
public enum APIContract {
    public static var openAPIDocument: [UInt8] { PackageResources.openapi_yaml }
    public static let mediaType = "application/yaml"
}

struct ContractRoutes: Sendable {
    func register(in router: inout Router) {
        router.add(.get, "/openapi.yaml") { _, _ in
            var headers = HTTPFields()
            headers.set("Content-Type", APIContract.mediaType)
            // The same for every caller, and fixed for the life of the binary: a cache may keep it for an hour.
            headers.set("Cache-Control", "public, max-age=3600")
            return HTTPResponse(status: .ok, headers: headers, body: APIContract.openAPIDocument)
        }
    }
}
