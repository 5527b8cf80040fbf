import CGtk

/// A GVariant as a Swift value, for D-Bus messages: built from Swift and turned into a GVariant with `make()`,
/// or read from one with `init(_:)`. Covers the types the desktop's D-Bus interfaces use.
public indirect enum Variant: Equatable, Sendable {
    case string(String)
    case objectPath(String)
    case bool(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case double(Double)
    case byte(UInt8)
    case variant(Variant)
    case tuple([Variant])
    /// An array whose elements have the given type signature (needed to build an empty one).
    case array(elementType: String, [Variant])
    case dictEntry(Variant, Variant)
    /// `ay`, built in one piece (pixmaps).
    case bytes([UInt8])

    /// `a{sv}`, the usual D-Bus property map.
    public static func vardict(_ entries: [(String, Variant)]) -> Variant {
        .array(elementType: "{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    /// The type signature, e.g. `(ia{sv}av)`.
    public var signature: String {
        switch self {
        case .string: return "s"
        case .objectPath: return "o"
        case .bool: return "b"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .double: return "d"
        case .byte: return "y"
        case .variant: return "v"
        case .tuple(let items): return "(" + items.map(\.signature).joined() + ")"
        case .array(let type, _): return "a" + type
        case .dictEntry(let key, let value): return "{" + key.signature + value.signature + "}"
        case .bytes: return "ay"
        }
    }

    /// A new floating GVariant (GDBus takes ownership when it is passed on).
    public func make() -> OpaquePointer {
        switch self {
        case .string(let s): return g_variant_new_string(s)
        case .objectPath(let s): return g_variant_new_object_path(s)
        case .bool(let b): return g_variant_new_boolean(b ? 1 : 0)
        case .int32(let i): return g_variant_new_int32(i)
        case .uint32(let u): return g_variant_new_uint32(u)
        case .int64(let x): return g_variant_new_int64(gint64(x))
        case .double(let d): return g_variant_new_double(d)
        case .byte(let y): return g_variant_new_byte(y)
        case .variant(let inner): return g_variant_new_variant(inner.make())
        case .tuple(let items):
            let children: [OpaquePointer?] = items.map { $0.make() }
            return children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        case .array(let type, let items):
            let elementType = g_variant_type_new(type)
            defer { g_variant_type_free(elementType) }
            let children: [OpaquePointer?] = items.map { $0.make() }
            return children.withUnsafeBufferPointer { g_variant_new_array(elementType, $0.baseAddress, gsize($0.count)) }
        case .dictEntry(let key, let value): return g_variant_new_dict_entry(key.make(), value.make())
        case .bytes(let bytes):
            let byteType = g_variant_type_new("y")
            defer { g_variant_type_free(byteType) }
            return bytes.withUnsafeBytes { g_variant_new_fixed_array(byteType, $0.baseAddress, gsize($0.count), 1) }
        }
    }

    /// Reads any GVariant of the covered types; others read as an empty tuple.
    public init(_ value: OpaquePointer) {
        let type = String(cString: g_variant_get_type_string(value))
        switch type.first {
        case "s": self = .string(String(cString: g_variant_get_string(value, nil)))
        case "o": self = .objectPath(String(cString: g_variant_get_string(value, nil)))
        case "b": self = .bool(g_variant_get_boolean(value) != 0)
        case "i": self = .int32(g_variant_get_int32(value))
        case "u": self = .uint32(g_variant_get_uint32(value))
        case "x": self = .int64(Int64(g_variant_get_int64(value)))
        case "d": self = .double(g_variant_get_double(value))
        case "y": self = .byte(g_variant_get_byte(value))
        case "v":
            let inner = g_variant_get_variant(value)!
            defer { g_variant_unref(inner) }
            self = .variant(Variant(inner))
        case "(": self = .tuple(Self.children(of: value))
        case "a": self = .array(elementType: String(type.dropFirst()), Self.children(of: value))
        case "{":
            let items = Self.children(of: value)
            self = .dictEntry(items[0], items[1])
        default: self = .tuple([])
        }
    }

    private static func children(of value: OpaquePointer) -> [Variant] {
        (0..<Int(g_variant_n_children(value))).map { index in
            let child = g_variant_get_child_value(value, gsize(index))!
            defer { g_variant_unref(child) }
            return Variant(child)
        }
    }

    // MARK: Reading

    public subscript(index: Int) -> Variant? {
        switch self {
        case .tuple(let items), .array(_, let items): return items.indices.contains(index) ? items[index] : nil
        default: return nil
        }
    }

    public var stringValue: String? {
        switch self {
        case .string(let s), .objectPath(let s): return s
        case .variant(let v): return v.stringValue
        default: return nil
        }
    }

    public var int32Value: Int32? {
        switch self {
        case .int32(let i): return i
        case .variant(let v): return v.int32Value
        default: return nil
        }
    }

    public var uint32Value: UInt32? {
        switch self {
        case .uint32(let u): return u
        case .variant(let v): return v.uint32Value
        default: return nil
        }
    }

    public var boolValue: Bool? {
        switch self {
        case .bool(let b): return b
        case .variant(let v): return v.boolValue
        default: return nil
        }
    }

    public var items: [Variant] {
        switch self {
        case .tuple(let items), .array(_, let items): return items
        default: return []
        }
    }
}
