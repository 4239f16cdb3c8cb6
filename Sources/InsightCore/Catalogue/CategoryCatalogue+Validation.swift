/// Request validation: the evaluation API calls this on the hot path with the features the request decoder
/// found. On success it allocates one array of numbers; violations are built only when there are some.
extension CategoryCatalogue {
    /// Checks every feature and returns either the vector or ALL problems found. No message echoes a value.
    public func validate(_ inputs: [(name: String, value: FeatureInput)]) -> Result<FeatureVector, FeatureValidationFailure> {
        let layout = self.layout
        let count = layout.count
        var storage = [Double](repeating: .nan, count: count)
        var violations: [FeatureViolation] = []
        layout.rules.withUnsafeBufferPointer { rules in
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: count) { seen in
                seen.initialize(repeating: false)
                var expected = 0
                // Only on the way to a refusal: a name outside the catalogue that repeats is a duplicate, as a
                // repeated catalogue name is, not a second unknown feature. Each keeps the index of its one
                // violation (violations are only replaced or appended here, so indices hold), since a name that is
                // not repeated back shares its pointer, `/features`, with every other such name.
                var unknownNames: [(name: String, violation: Int)] = []
                // One violation a feature: a repeat takes the place of what the first copy was found to be (unknown,
                // mistyped, out of range), which no longer says what the client meant, and a third copy adds nothing.
                func recordDuplicate(_ pointer: String) {
                    let duplicate = FeatureViolation(pointer: pointer, reason: .duplicateFeature)
                    if let first = violations.firstIndex(where: { $0.pointer == pointer }) {
                        violations[first] = duplicate
                    } else {
                        violations.append(duplicate)
                    }
                }
                for (name, input) in inputs {
                    // Clients usually send features in catalogue order: try the next expected name first.
                    let index: Int
                    if expected < count, layout.names[expected] == name {
                        index = expected
                    } else if let found = layout.index(of: name) {
                        index = found
                    } else {
                        let echoable = JSONPointer.isEchoable(name)
                        if let known = unknownNames.first(where: { $0.name == name }) {
                            // A name that is not repeated stays unrepeated: its one violation names the object.
                            violations[known.violation] = echoable
                                ? FeatureViolation(pointer: JSONPointer.feature(name), reason: .duplicateFeature)
                                : FeatureViolation(pointer: "/features", reason: .duplicateUnnamedFeature)
                        } else {
                            unknownNames.append((name, violations.count))
                            violations.append(echoable
                                ? FeatureViolation(pointer: JSONPointer.feature(name), reason: .unknownFeature)
                                : FeatureViolation(pointer: "/features", reason: .unknownUnnamedFeature))
                        }
                        continue
                    }
                    expected = index + 1
                    if seen[index] {
                        recordDuplicate(layout.pointers[index])
                        continue
                    }
                    seen[index] = true
                    let rule = rules[index]
                    if rule.isComputed {
                        violations.append(FeatureViolation(pointer: layout.pointers[index], reason: .computedByService))
                        continue
                    }
                    switch check(input, against: rule, index: index) {
                    case .value(let value):
                        storage[index] = value
                    case .missing:
                        if rule.isRequired {
                            violations.append(FeatureViolation(pointer: layout.pointers[index], reason: .missingRequired))
                        }
                    case .violation(let reason):
                        violations.append(FeatureViolation(pointer: layout.pointers[index], reason: reason))
                    }
                }
                for index in 0..<count where !seen[index] && rules[index].isRequired && !rules[index].isComputed {
                    violations.append(FeatureViolation(pointer: layout.pointers[index], reason: .missingRequired))
                }
                seen.deinitialize()
            }
        }
        if !violations.isEmpty { return .failure(FeatureValidationFailure(violations: violations)) }
        return .success(FeatureVector(layout: layout, storage: storage))
    }

    enum CheckOutcome {
        case value(Double)
        case missing
        case violation(FeatureViolationReason)
    }

    private func check(_ input: FeatureInput, against rule: FeatureRule, index: Int) -> CheckOutcome {
        let number: Double
        switch input {
        case .null:
            return .missing
        case .wrongType(let kind):
            return .violation(.wrongType(expected: rule.type, received: kind))
        case .boolean(let flag):
            guard rule.type == .flag else { return .violation(.wrongType(expected: rule.type, received: "boolean")) }
            return .value(flag ? 1 : 0)
        case .number(let value):
            number = value
        }
        guard number.isFinite else { return .violation(.notFinite) }
        switch rule.type {
        case .number:
            break
        case .count, .flag:
            guard Self.isInteger(number) else {
                return .violation(.notAnInteger(expected: rule.type, minimum: rule.minimum, maximum: rule.maximum))
            }
        case .band:
            guard Self.isInteger(number) else {
                return .violation(.notAnInteger(
                    expected: .band, minimum: rule.minimum, maximum: rule.maximum, bands: features[index].bands.map(\.code)))
            }
            let allowed: Bool
            if number >= 0, number < 64, rule.bandMask & (1 << UInt64(number)) != 0 {
                allowed = true
            } else if rule.hasLargeBandCodes, abs(number) < 1e15 {
                allowed = features[index].allowsBand(Int(number))
            } else {
                allowed = false
            }
            guard allowed else { return .violation(.notAllowedBand(allowed: features[index].bands.map(\.code))) }
            return .value(number)
        }
        guard number >= rule.minimum, number <= rule.maximum else {
            return .violation(.outOfRange(minimum: rule.minimum, maximum: rule.maximum, unit: features[index].unit))
        }
        // -0.0 and 0 are the same value; store one bit pattern so identical requests give identical vectors.
        return .value(number == 0 ? 0 : number)
    }

    /// True for finite integral values, without a libm call.
    @inline(__always)
    private static func isInteger(_ value: Double) -> Bool {
        guard abs(value) < 9.007_199_254_740_992e15 else { return value.isFinite }
        return Double(Int64(value)) == value
    }
}
