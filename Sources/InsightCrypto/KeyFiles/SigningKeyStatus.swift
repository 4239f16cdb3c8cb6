/// What a signing key is doing, in the words `GET /v1/signing-keys` and `signing-keys list` both use.
public enum SigningKeyStatus: String, Sendable {
    /// Signs new payloads.
    case active
    /// Signed before a later key took over; still published so that what it signed verifies.
    case retired
    /// Published ahead of its time, so that verifiers can hold it before the first payload it signs.
    case staged

    /// The status of the key at `index` among keys sorted oldest first, `activeIndex` being
    /// `SigningKeyFiles.activeIndex(_:now:)`'s answer for them.
    public init(keyAt index: Int, activeIndex: Int) {
        self = index == activeIndex ? .active : index < activeIndex ? .retired : .staged
    }
}
