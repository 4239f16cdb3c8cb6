import Foundation
import Testing
@testable import TrustInsightsApp

/// The Python verifier in docs/SIGNED-PAYLOAD.md, run as written against real answers of the live service: what
/// the document tells app servers to do must accept genuine payloads and refuse the ones it says it refuses. Needs
/// Python's cbor2 and cryptography (CI installs them); without them the test says it skipped.
@Suite(.serialized) struct SignedPayloadDocTests {
    static let document = LiveService.repositoryRoot + "/docs/SIGNED-PAYLOAD.md"

    /// The first ```python block after the "Python example" heading.
    static func example() throws -> String {
        let text = try String(contentsOfFile: document, encoding: .utf8)
        let section = try #require(text.range(of: "## Python example"))
        let start = try #require(text.range(of: "```python\n", range: section.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        return String(text[start.upperBound..<end.lowerBound])
    }

    static let driver = #"""

import sys
base_url, sandbox_b64, production_b64, sandbox_rid, production_rid = sys.argv[1:6]
keys = SigningKeySet(base_url, spacing_seconds=0.2)

def refused(*args, **kwargs):
    try:
        verify_signed_payload(*args, **kwargs)
    except ValueError as error:
        return str(error)
    return None

production = verify_signed_payload(production_b64, keys, production_rid)
assert production["environment"] == "production" and production["requestID"] == production_rid, production
sandbox = verify_signed_payload(sandbox_b64, keys, sandbox_rid, expected_environment="sandbox")
assert sandbox["insights"][0]["outcome"] == {"value": "unknown"}, sandbox
assert refused(sandbox_b64, keys, sandbox_rid), "a sandbox answer passes a production check"
assert refused(production_b64, keys, "another-request"), "a replayed payload passes"
assert refused(production_b64, keys, None), "no requestID to compare, yet accepted"
raw = base64.b64decode(production_b64)
assert refused(base64.b64encode(raw + b"\x00").decode(), keys, production_rid), "trailing bytes accepted"
assert refused(production_b64[:-4] + "!!!!", keys, production_rid), "non-base64 accepted"
flipped = bytearray(raw); flipped[len(raw) // 2] ^= 1
assert refused(base64.b64encode(bytes(flipped)).decode(), keys, production_rid), "a changed byte accepted"

# Malformed messages: each must be refused with ValueError (refused() lets any other exception through).
parts = list(cbor2.loads(raw).value)
unprotected = dict(parts[1])
def cose(value):
    return base64.b64encode(cbor2.dumps(value)).decode()
for name, b64 in [
    ("tag 18 around an int", cose(cbor2.CBORTag(18, 5))),
    ("three parts", cose(cbor2.CBORTag(18, parts[:3]))),
    ("empty protected header", cose(cbor2.CBORTag(18, [b"", {1: -7, 4: unprotected[4]}, parts[2], parts[3]]))),
    ("protected header an int", cose(cbor2.CBORTag(18, [cbor2.dumps(5), unprotected, parts[2], parts[3]]))),
    ("protected header not CBOR", cose(cbor2.CBORTag(18, [b"\xff\xff", unprotected, parts[2], parts[3]]))),
    ("critical header", cose(cbor2.CBORTag(18, [cbor2.dumps({1: -7, 2: [99]}), unprotected, parts[2], parts[3]]))),
    ("unprotected a list", cose(cbor2.CBORTag(18, [parts[0], [1], parts[2], parts[3]]))),
    ("signature an int", cose(cbor2.CBORTag(18, [parts[0], unprotected, parts[2], 5]))),
    ("kid an int", cose(cbor2.CBORTag(18, [parts[0], {4: 7}, parts[2], parts[3]]))),
]:
    assert refused(b64, keys, production_rid), name

# When to fetch the keys again: a kid the set lacks is fetched for unless a fetch began after the payload arrived.
fetches = []
fetch_from_server = fetch_signing_keys
def fetch_signing_keys(url):
    fetches.append(time.monotonic())
    return fetch_from_server(url)
production_kid = unprotected[4].decode()
assert production_kid in keys.keys
stale = SigningKeySet(base_url, spacing_seconds=0.2)
fetches.clear()
stale.keys = {}  # as if fetched before the key that signed these payloads existed
forged_at = time.monotonic()
assert stale.key("ffffffffffffffff", forged_at) is None and len(fetches) == 1, "a forged kid: one fetch, then refused"
assert stale.key("ffffffffffffffff", forged_at) is None and len(fetches) == 1, "a payload older than the fetch: no other"
stale.keys = {}  # a rotation just after that fetch: once-a-minute fetching would now refuse the genuine payload
verified = verify_signed_payload(production_b64, stale, production_rid)
assert verified["requestID"] == production_rid and len(fetches) == 2, fetches
assert fetches[1] - fetches[0] >= 0.2, "fetches not spaced"
assert refused(production_b64, stale, production_rid, received_at=forged_at) is None, "a known kid needs no fetch"
assert len(fetches) == 2

# A failed fetch is no verdict and changes nothing: the same payload, retried, verifies (clients probe, 6 December:
# the fetch's start was recorded before it failed, and the retry was refused as if a fetch had lacked the kid).
failing = SigningKeySet(base_url, spacing_seconds=0.05)
failing.keys = {}
received = time.monotonic()
def fetch_signing_keys(url):
    raise OSError("network down")
try:
    refused(production_b64, failing, production_rid, received_at=received)
    raise AssertionError("a failed fetch gave a verdict")
except OSError:
    pass
fetch_signing_keys = fetch_from_server
assert refused(production_b64, failing, production_rid, received_at=received) is None, "refused after a failed fetch"

# A kid the set holds is looked up while a fetch for another is under way, not after it.
slow = SigningKeySet(base_url, spacing_seconds=0.0)
def fetch_signing_keys(url):
    time.sleep(0.6)
    return fetch_from_server(url)
fetching = threading.Thread(target=slow.key, args=("ffffffffffffffff", time.monotonic()))
fetching.start()
time.sleep(0.1)
began = time.monotonic()
assert slow.key(production_kid, began) is not None
assert time.monotonic() - began < 0.3, "a known kid waited for another kid's fetch"
fetching.join()
fetch_signing_keys = fetch_from_server

# The payload is JCS (RFC 8785), checked by an independent implementation when it is installed.
try:
    import rfc8785
except ImportError:
    rfc8785 = None
if rfc8785 is not None:
    for b64 in (production_b64, sandbox_b64):
        payload = cbor2.loads(base64.b64decode(b64)).value[2]
        assert rfc8785.dumps(json.loads(payload)) == payload, payload
print("verified" + (" jcs" if rfc8785 else ""))
"""#

    @Test func theDocumentedVerifierAcceptsRealAnswersAndRefusesWhatItSaysItRefuses() throws {
        guard pythonCanImport("cbor2, cryptography") else {
            print("SignedPayloadDocTests: skipped, Python's cbor2 and cryptography are not installed")
            return
        }
        let service = try LiveService()
        /// `requestID` as JSON text (escaped), for the body; the test compares with the decoded value.
        func answer(_ key: String, requestID: String, headers: [(String, String)] = []) throws -> String {
            let response = try service.client().request("POST", "/v1/evaluations", headers: [
                ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"),
            ] + headers, body: Requests.payment(requestID: requestID))
            #expect(response.status == 200, "\(response.text)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            return try #require(object["signedPayload"] as? String)
        }
        // Request IDs with the characters whose escapes differ between JSON writers (JCS writes \b and \f, and DEL
        // as it is).
        let sandboxID = "doc-sandbox-\u{8}\u{C}\u{7F}\u{1}é"
        let productionID = "doc-production-\u{9}\"\\"
        let sandbox = try answer(
            try service.key(environment: .sandbox), requestID: #"doc-sandbox-\b\f\#u{7F}\u0001é"#,
            headers: [("Trust-Insights-Override-Outcome", "unknown")])
        let production = try answer(try service.key(environment: .production), requestID: #"doc-production-\t\"\\"#)

        let script = service.dataDirectory + "/verify-doc-example.py"
        try (try Self.example() + Self.driver).write(toFile: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "http://127.0.0.1:\(service.port)", sandbox, production, sandboxID, productionID]
        let text = try process.runCollectingOutput()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.hasPrefix("verified"), "\(text)")
        if !text.contains("jcs") { print("SignedPayloadDocTests: the JCS cross-check skipped (pip install rfc8785)") }
    }
}
