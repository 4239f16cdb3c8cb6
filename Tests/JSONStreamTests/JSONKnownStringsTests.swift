import Testing
@testable import JSONStream

private func storageAddress(_ string: String) -> UInt? {
    string.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } ?? nil
}

private func keys(of text: String, knownStrings: JSONKnownStrings) throws -> [String] {
    var reader = JSONReader(Array(text.utf8), knownStrings: knownStrings)
    var keys: [String] = []
    try reader.readObject { key, reader in
        keys.append(key)
        if try reader.peekKind() == .string { keys.append(try reader.readString()) } else { try reader.skipValue() }
    }
    try reader.finish()
    return keys
}

@Suite struct JSONKnownStringsTests {
    @Test func aKnownStringIsHandedOutAsTheSharedCopy() throws {
        let known = JSONKnownStrings(["callDurationSeconds", "isLikelyBeingCoached"])
        let read = try keys(of: #"{"callDurationSeconds": 1, "x": "isLikelyBeingCoached"}"#, knownStrings: known)
        #expect(read == ["callDurationSeconds", "x", "isLikelyBeingCoached"])
        let again = try keys(of: #"{"callDurationSeconds": 2}"#, knownStrings: known)
        // The same storage both times: nothing was allocated for it.
        #expect(storageAddress(read[0]) != nil)
        #expect(storageAddress(read[0]) == storageAddress(again[0]))
        #expect(storageAddress(read[2]) != nil)
        let unshared = try keys(of: #"{"callDurationSeconds": 2}"#, knownStrings: .none)
        #expect(storageAddress(unshared[0]) != storageAddress(read[0]))
    }

    @Test func readsTheSameStringsWithOrWithoutTheTable() throws {
        let names = ["sessionDurationSeconds", "amountBandRelativeToUsual", "remoteAccessAppActive", "appSwitchesDuringFlow",
                     "screenSharingActive", "callerKnownToPerson", "short", "exactlySixteen!!", "fifteen-bytes!!"]
        let known = JSONKnownStrings(names)
        // Near misses of every length: one byte changed at each end, one byte longer or shorter, escapes, non-ASCII.
        var candidates = names
        for name in names {
            candidates.append(String(name.dropLast()) + "X")
            candidates.append("X" + String(name.dropFirst()))
            candidates.append(name + "s")
            candidates.append(String(name.dropLast()))
            candidates.append(name.replacingFirst("e", with: "\\u0065"))
            candidates.append(name.replacingFirst("e", with: "é"))
        }
        for candidate in candidates {
            let document = "{\"" + candidate + "\": \"" + candidate + "\"}"
            let plain = try keys(of: document, knownStrings: .none)
            let interned = try keys(of: document, knownStrings: known)
            #expect(plain == interned, "\(candidate)")
        }
    }

    @Test func keepsOnlyDistinctASCIIStringsTooLongToBeInline() {
        let known = JSONKnownStrings(["short", "fifteen-bytes!!", "exactlySixteen!!", "exactlySixteen!!", "nonASCII-éééééééé",
                                      String(repeating: "a", count: 129), String(repeating: "b", count: 128)])
        #expect(known.count == 2)
        #expect(JSONKnownStrings.none.count == 0)
    }
}

private extension String {
    func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let index = firstIndex(of: target) else { return self }
        return String(self[..<index]) + replacement + String(self[self.index(after: index)...])
    }
}
