/// The protocol versions the HTTP/1.1 parser accepts; any other major version is answered with 505.
public enum HTTPVersion: Sendable, Hashable {
    case http1_0
    case http1_1
}
