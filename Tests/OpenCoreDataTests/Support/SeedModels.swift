@testable import OpenCoreDataCore

/// The models of the seed documents (shared/seeds), built in code exactly as
/// the model files under Examples/Models describe them.
enum SeedModels {
    static let examples: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Examples/Models")
    }()

    static func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = false,
                          defaultValue: Any? = nil, scalar: Bool? = nil) -> NSAttributeDescription {
        let attribute = NSAttributeDescription(name: name, type: type, isOptional: optional, defaultValue: defaultValue)
        attribute.usesScalarValueType = scalar
        return attribute
    }

    /// Links two relationships as each other's inverse.
    static func pair(_ a: NSRelationshipDescription, _ b: NSRelationshipDescription) {
        a.inverseRelationship = b
        b.inverseRelationship = a
    }

    static func entity(_ name: String, _ properties: [NSPropertyDescription], className: String? = nil) -> NSEntityDescription {
        NSEntityDescription(name: name, className: className ?? name, properties: properties)
    }

    /// Album ⟷> Photo, one-to-many: deleting an album cascades to its photos (seed 000).
    static func frozenTime() -> NSManagedObjectModel {
        let album = NSEntityDescription(), photo = NSEntityDescription()
        let photos = NSRelationshipDescription(name: "photos", destination: photo, toMany: true, deleteRule: .cascadeDeleteRule)
        let albumOfPhoto = NSRelationshipDescription(name: "album", destination: album, deleteRule: .nullifyDeleteRule)
        pair(photos, albumOfPhoto)
        let albumName = attribute("name", .stringAttributeType)
        albumName.validationRules = AttributeValidationRules(minValueString: "1", maxValueString: "100")
        album.name = "Album"; album.managedObjectClassName = "Album"; album.codeGenerationType = "class"
        album.properties = [attribute("creationDate", .dateAttributeType, optional: true, scalar: false), albumName, photos]
        let rating = attribute("rating", .integer16AttributeType, optional: true, defaultValue: Int16(0), scalar: true)
        rating.validationRules = AttributeValidationRules(minValueString: "0", maxValueString: "5")
        photo.name = "Photo"; photo.managedObjectClassName = "Photo"; photo.codeGenerationType = "class"
        photo.properties = [attribute("creationDate", .dateAttributeType, optional: true, scalar: false),
                            attribute("name", .stringAttributeType), rating, albumOfPhoto]
        let model = NSManagedObjectModel()
        model.entities = [album, photo]
        model.setFetchRequestDescription(FetchRequestDescription(entityName: "Photo", predicateFormat: "name BEGINSWITH $PREFIX"), forName: "PhotosNamed")
        return model
    }

    /// Item >⟶ Unit: a unit with items can't be deleted (Deny), seed 001's "Model 5".
    static func groceryDude() -> NSManagedObjectModel {
        let item = NSEntityDescription(), unit = NSEntityDescription()
        let unitOfItem = NSRelationshipDescription(name: "unit", destination: unit, deleteRule: .nullifyDeleteRule)
        let items = NSRelationshipDescription(name: "items", destination: item, toMany: true, deleteRule: .denyDeleteRule)
        pair(unitOfItem, items)
        item.name = "Item"; item.managedObjectClassName = "Item"
        item.properties = [attribute("listed", .booleanAttributeType, optional: true, defaultValue: true),
                           attribute("name", .stringAttributeType, defaultValue: "New Item"),
                           attribute("quantity", .floatAttributeType, optional: true, defaultValue: Float(1)), unitOfItem]
        unit.name = "Unit"; unit.managedObjectClassName = "Unit"
        unit.properties = [attribute("name", .stringAttributeType, defaultValue: "New Unit"), items]
        let model = NSManagedObjectModel()
        model.entities = [item, unit]
        model.versionIdentifiers = ["5"]
        return model
    }

    /// Department ⟷> Employee with Nullify, and Employee manages Employee (reflexive).
    static func company() -> NSManagedObjectModel {
        let department = NSEntityDescription(), employee = NSEntityDescription()
        let employees = NSRelationshipDescription(name: "employees", destination: employee, toMany: true)
        let departmentOfEmployee = NSRelationshipDescription(name: "department", destination: department)
        pair(employees, departmentOfEmployee)
        let manager = NSRelationshipDescription(name: "manager", destination: employee)
        let reports = NSRelationshipDescription(name: "directReports", destination: employee, toMany: true)
        pair(manager, reports)
        department.name = "Department"; department.managedObjectClassName = "Department"
        department.properties = [attribute("name", .stringAttributeType), employees]
        employee.name = "Employee"; employee.managedObjectClassName = "Employee"
        employee.properties = [attribute("name", .stringAttributeType),
                               attribute("salary", .decimalAttributeType, optional: true, defaultValue: Decimal(0)),
                               departmentOfEmployee, reports, manager]
        let model = NSManagedObjectModel()
        model.entities = [department, employee]
        return model
    }

    /// Quake >⟷< Country, many-to-many with Nullify on both sides (seed 004).
    static func earthquakes() -> NSManagedObjectModel {
        let quake = NSEntityDescription(), country = NSEntityDescription()
        let countries = NSRelationshipDescription(name: "countries", destination: country, toMany: true)
        let quakes = NSRelationshipDescription(name: "quakes", destination: quake, toMany: true)
        pair(countries, quakes)
        country.name = "Country"; country.managedObjectClassName = "Country"
        country.properties = [attribute("name", .stringAttributeType), quakes]
        country.uniquenessConstraints = [["name"]]
        quake.name = "Quake"; quake.managedObjectClassName = "Quake"
        quake.properties = [attribute("code", .stringAttributeType),
                            attribute("magnitude", .floatAttributeType, defaultValue: Float(0), scalar: true),
                            attribute("place", .stringAttributeType),
                            attribute("time", .dateAttributeType, scalar: false), countries]
        quake.indexes = [NSFetchIndexDescription(name: "byTimeIndex", elements: [
            NSFetchIndexElementDescription(propertyName: "time", collationType: .binary, isAscending: false)])]
        let model = NSManagedObjectModel()
        model.entities = [country, quake]
        return model
    }
}
