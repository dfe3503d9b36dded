/// The model's validation rules applied to an object's values (reference
/// §2.2–2.4): each failure is an NSError in NSCocoaErrorDomain carrying the
/// object, the key and (when there is one) the value.
enum PropertyValidation {
    /// Every property of `object` through its `validateValue(_:forKey:)`;
    /// throws one error or NSValidationMultipleErrorsError (1560). Costs one
    /// check per property.
    static func validateProperties(of object: NSManagedObject) throws {
        var errors: [NSError] = []
        // An object whose class does not override validateValue(_:forKey:)
        // (a plain NSManagedObject, Xcode's generated classes, a class with
        // checks across properties in validateForUpdate()) gets its own
        // check, which leaves the value as it is: only properties with rules
        // can fail, and they are checked directly, without the lookup by key
        // and the comparison with the original.
        let isPlain = !ClassOverrides.customizeValueValidation(type(of: object))
        let entity = object.entity
        let properties = isPlain ? entity.validatedProperties : entity.properties
        // Nothing to check (a plain object of an entity without rules): no error list, no slot set.
        if properties.isEmpty { return }
        let valueRequired = isPlain ? entity.valueRequiredSlots : SlotSet()
        for property in properties where !(property is NSFetchedPropertyDescription) {
            let key = property.name
            // `primitiveValue(forKey:)` without looking the property up by name again.
            object.fireFaultIfNeeded()
            // A property whose one rule is to hold a value passes when its slot holds one.
            let slot = object.values.layout.slot(of: property)
            if valueRequired.contains(slot), object.values[slot].holdsValue { continue }
            let original = object.publicValue(at: slot)
            do {
                if isPlain {
                    try check(original, property, of: object)
                    continue
                }
                var value = original
                try object.validateValue(&value, forKey: key)
                if !ValueEquality.equal(value, original) { object.setValue(value, forKey: key) }
            } catch let error as NSError {
                errors += error.code == NSValidationMultipleErrorsError
                    ? (error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? [error]) : [error]
            }
        }
        if let error = NSError.validation(combining: errors) { throw error }
    }

    /// The Deny rule: throws 1600 for each Deny relationship of `object` that
    /// still has a destination not itself being deleted.
    static func validateDeletion(of object: NSManagedObject) throws {
        var errors: [NSError] = []
        for relationship in object.entity.relationshipsInNameOrder where relationship.deleteRule == .denyDeleteRule {
            let remaining = object.destinations(of: relationship).filter { !$0.isDeleted }
            guard !remaining.isEmpty else { continue }
            errors.append(error(NSValidationRelationshipDeniedDeleteError, object, relationship.name,
                                object.primitiveValue(forKey: relationship.name),
                                "\(object.entity.name ?? "") can't be deleted while '\(relationship.name)' (Deny) has \(remaining.count) object(s)."))
        }
        if let error = NSError.validation(combining: errors) { throw error }
    }

    /// The model's rules for one value of `key`.
    static func check(_ value: Any?, forKey key: String, of object: NSManagedObject) throws {
        try check(value, object.property(named: key), of: object)
    }

    /// The rules of `property` (one of `object`'s) for `value`.
    private static func check(_ value: Any?, _ property: NSPropertyDescription, of object: NSManagedObject) throws {
        let key = property.name
        let value = ValueCoercion.unwrapped(value)
        var errors: [NSError] = []
        func fail(_ code: Int, _ message: String) { errors.append(error(code, object, key, value, message)) }
        // Built only for a failure: every property of every saved object passes through here.
        var what: String { "\(object.entity.name ?? "").\(key)" }
        switch property {
        case let attribute as NSAttributeDescription:
            guard let value else {
                if !attribute.isOptional { fail(NSValidationMissingMandatoryPropertyError, "\(what) is required.") }
                break
            }
            let rules = attribute.validationRules
            // Each rule is looked at before the value is cast for it: most
            // attributes have none, and the casts are conformance lookups.
            let hasBounds = rules.minValueString != nil || rules.maxValueString != nil
            if hasBounds, attribute.attributeType.isNumeric, let number = decimal(value) {
                if let min = rules.minValueString.flatMap(decimalBound), number < min {
                    fail(NSValidationNumberTooSmallError, "\(what) is smaller than \(min).")
                }
                if let max = rules.maxValueString.flatMap(decimalBound), number > max {
                    fail(NSValidationNumberTooLargeError, "\(what) is larger than \(max).")
                }
            }
            if hasBounds || rules.regularExpressionString != nil, let string = value as? String {
                // Core Data counts NSString length: UTF-16 code units.
                let length = string.utf16.count
                if let min = rules.minValueString.flatMap({ Int($0) }), length < min {
                    fail(NSValidationStringTooShortError, "\(what) is shorter than \(min) characters.")
                }
                if let max = rules.maxValueString.flatMap({ Int($0) }), length > max {
                    fail(NSValidationStringTooLongError, "\(what) is longer than \(max) characters.")
                }
                if let pattern = rules.regularExpressionString, !matchesWhole(string, pattern) {
                    fail(NSValidationStringPatternMatchingError, "\(what) does not match \(pattern).")
                }
            }
            if rules.minDateTimeInterval != nil || rules.maxDateTimeInterval != nil, let date = value as? Date {
                if let min = rules.minDateTimeInterval, date.timeIntervalSinceReferenceDate < min {
                    fail(NSValidationDateTooSoonError, "\(what) is earlier than allowed.")
                }
                if let max = rules.maxDateTimeInterval, date.timeIntervalSinceReferenceDate > max {
                    fail(NSValidationDateTooLateError, "\(what) is later than allowed.")
                }
            }
        case let relationship as NSRelationshipDescription where relationship.isToMany:
            let count = (value as? NSSet)?.count ?? (value as? NSOrderedSet)?.count ?? 0
            if count == 0 {
                guard !relationship.isOptional else { break }
                relationship.minCount > 0
                    ? fail(NSValidationRelationshipLacksMinimumCountError, "\(what) needs at least \(relationship.minCount) object(s).")
                    : fail(NSValidationMissingMandatoryPropertyError, "\(what) is required.")
            } else if relationship.minCount > 0, count < relationship.minCount {
                fail(NSValidationRelationshipLacksMinimumCountError, "\(what) needs at least \(relationship.minCount) object(s).")
            } else if relationship.maxCount > 0, count > relationship.maxCount {
                fail(NSValidationRelationshipExceedsMaximumCountError, "\(what) may hold at most \(relationship.maxCount) object(s).")
            }
        default:
            if value == nil, !property.isOptional { fail(NSValidationMissingMandatoryPropertyError, "\(what) is required.") }
        }
        // The property's validation predicates apply to non-nil values
        // (NSPropertyDescription.h); a failure is the generic 1550 carrying
        // the predicate and its warning as the message.
        if let value, !property.validationPredicateStorage.isEmpty, let failed = property.firstFailedValidationPredicate(for: value) {
            let failure = error(NSManagedObjectValidationError, object, key, value, failed.warning)
            var info = failure.userInfo
            info[NSValidationPredicateErrorKey] = failed.predicate
            errors.append(NSError(domain: failure.domain, code: failure.code, userInfo: info))
        }
        if let error = NSError.validation(combining: errors) { throw error }
    }

    static func error(_ code: Int, _ object: NSManagedObject, _ key: String, _ value: Any?, _ message: String) -> NSError {
        var info: [String: Any] = [NSValidationObjectErrorKey: object, NSValidationKeyErrorKey: key]
        if let value { info[NSValidationValueErrorKey] = value }
        return .coreData(code, message, userInfo: info)
    }

    private static func decimal(_ value: Any) -> Decimal? {
        switch value {
        case let decimal as Decimal: return decimal
        case let int as any BinaryInteger: return Int64(exactly: int).map { Decimal($0) }
        case let double as Double: return Decimal(double)
        case let float as Float: return Decimal(Double(float))
        default: return nil
        }
    }

    private static func decimalBound(_ text: String) -> Decimal? { Decimal(string: text) }

    private static func matchesWhole(_ string: String, _ pattern: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: "^(?:\(pattern))$") else { return true }
        return regex.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil
    }
}

extension NSError {
    /// nil for no errors, the error itself for one, else
    /// NSValidationMultipleErrorsError (1560) with all of them in NSDetailedErrorsKey.
    static func validation(combining errors: [NSError]) -> NSError? {
        guard errors.count > 1 else { return errors.first }
        return .coreData(NSValidationMultipleErrorsError, "Multiple validation errors occurred.",
                         userInfo: [NSDetailedErrorsKey: errors])
    }
}
