/// Request validation: the evaluation API calls this on the hot path with the features the request decoder
/// found. On success it allocates one array of numbers; violations are built only when there are some.
extension CategoryCatalogue {
    /// Checks every feature and returns either the vector or ALL problems found. No message echoes a value.
    public func validate(_ inputs: [(name: String, value: FeatureInput)]) -> Result<FeatureVector, FeatureValidationFailure> {
        let count = features.count
        var storage = [Double](repeating: .nan, count: count)
        var violations: [FeatureViolation] = []
        withUnsafeTemporaryAllocation(of: Bool.self, capacity: count) { seen in
            seen.initialize(repeating: false)
            for (name, input) in inputs {
                guard let index = layout.index(of: name) else {
                    violations.append(FeatureViolation(pointer: JSONPointer.feature(name), reason: .unknownFeature))
                    continue
                }
                if seen[index] {
                    violations.append(FeatureViolation(pointer: layout.pointers[index], reason: .duplicateFeature))
                    continue
                }
                seen[index] = true
                let definition = features[index]
                if definition.source == .computed {
                    violations.append(FeatureViolation(pointer: layout.pointers[index], reason: .computedByService))
                    continue
                }
                switch Self.check(input, against: definition) {
                case .value(let value):
                    storage[index] = value
                case .missing:
                    if definition.isRequired {
                        violations.append(FeatureViolation(pointer: layout.pointers[index], reason: .missingRequired))
                    }
                case .violation(let reason):
                    violations.append(FeatureViolation(pointer: layout.pointers[index], reason: reason))
                }
            }
            for index in 0..<count where !seen[index] {
                let definition = features[index]
                if definition.isRequired, definition.source == .client {
                    violations.append(FeatureViolation(pointer: layout.pointers[index], reason: .missingRequired))
                }
            }
            seen.deinitialize()
        }
        if !violations.isEmpty { return .failure(FeatureValidationFailure(violations: violations)) }
        return .success(FeatureVector(layout: layout, storage: storage))
    }

    enum CheckOutcome {
        case value(Double)
        case missing
        case violation(FeatureViolationReason)
    }

    static func check(_ input: FeatureInput, against definition: FeatureDefinition) -> CheckOutcome {
        let number: Double
        switch input {
        case .null:
            return .missing
        case .wrongType(let kind):
            return .violation(.wrongType(expected: definition.type, received: kind))
        case .boolean(let flag):
            guard definition.type == .flag else {
                return .violation(.wrongType(expected: definition.type, received: "boolean"))
            }
            return .value(flag ? 1 : 0)
        case .number(let value):
            number = value
        }
        guard number.isFinite else { return .violation(.notFinite) }
        switch definition.type {
        case .number:
            break
        case .count, .flag:
            guard number == number.rounded() else { return .violation(.notAnInteger) }
        case .band:
            guard number == number.rounded() else { return .violation(.notAnInteger) }
            guard abs(number) < 1e15, definition.allowsBand(Int(number)) else {
                return .violation(.notAllowedBand(allowed: definition.bands.map(\.code)))
            }
            return .value(number)
        }
        guard number >= definition.minimum, number <= definition.maximum else {
            return .violation(.outOfRange(minimum: definition.minimum, maximum: definition.maximum, unit: definition.unit))
        }
        // -0.0 and 0 are the same value; store one bit pattern so identical requests give identical vectors.
        return .value(number == 0 ? 0 : number)
    }
}
