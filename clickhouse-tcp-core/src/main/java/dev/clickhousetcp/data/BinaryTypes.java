package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes ClickHouse's binary encoding of data types (ClickHouse {@code DataTypesBinaryEncoding.cpp},
 * documented in {@code data-types-binary-encoding.md}) into the type name the server itself prints
 * ({@code IDataType::getName}, e.g. what {@code dynamicType()} returns). Used for values in a Dynamic
 * column's shared variant and in a JSON column's shared data, each of which starts with its type in
 * this encoding. Tags checked against a ClickHouse 26.7 server: {@code Time64} is {@code 0x34},
 * {@code QBit} {@code 0x36}. Stateless and thread-safe.
 */
final class BinaryTypes {
    private static final String[] INTERVAL_KINDS = {"Nanosecond", "Microsecond", "Millisecond", "Second",
        "Minute", "Hour", "Day", "Week", "Month", "Quarter", "Year"};
    private static final int MAX_ITEMS = 1_000_000;
    private static final int MAX_DEPTH = 64;

    private BinaryTypes() {
    }

    /** Reads one encoded type and returns its ClickHouse name. */
    static String decode(Bytes.Cursor in) {
        return decode(in, 0);
    }

    private static String decode(Bytes.Cursor in, int depth) {
        if (depth > MAX_DEPTH) {
            throw new ClickHouseProtocolException("binary type encoding nested deeper than " + MAX_DEPTH);
        }
        int tag = in.readUInt8();
        switch (tag) {
            case 0x00: return "Nothing";
            case 0x01: return "UInt8";
            case 0x02: return "UInt16";
            case 0x03: return "UInt32";
            case 0x04: return "UInt64";
            case 0x05: return "UInt128";
            case 0x06: return "UInt256";
            case 0x07: return "Int8";
            case 0x08: return "Int16";
            case 0x09: return "Int32";
            case 0x0A: return "Int64";
            case 0x0B: return "Int128";
            case 0x0C: return "Int256";
            case 0x0D: return "Float32";
            case 0x0E: return "Float64";
            case 0x0F: return "Date";
            case 0x10: return "Date32";
            case 0x11: return "DateTime";
            case 0x12: return "DateTime(" + TypeNames.quote(in.readString()) + ")";
            case 0x13: return "DateTime64(" + in.readUInt8() + ")";
            case 0x14: {
                int scale = in.readUInt8();
                return "DateTime64(" + scale + ", " + TypeNames.quote(in.readString()) + ")";
            }
            case 0x15: return "String";
            case 0x16: return "FixedString(" + in.readVarUInt() + ")";
            case 0x17: return enumName(in, "Enum8", 1);
            case 0x18: return enumName(in, "Enum16", 2);
            case 0x19, 0x1A, 0x1B, 0x1C: {
                int precision = in.readUInt8();
                int scale = in.readUInt8();
                return "Decimal(" + precision + ", " + scale + ")";
            }
            case 0x1D: return "UUID";
            case 0x1E: return "Array(" + decode(in, depth + 1) + ")";
            case 0x1F: {
                int n = in.readCount(MAX_ITEMS, "tuple element count");
                List<String> parts = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    parts.add(decode(in, depth + 1));
                }
                return "Tuple(" + String.join(", ", parts) + ")";
            }
            case 0x20, 0x2F: {
                int n = in.readCount(MAX_ITEMS, "tuple element count");
                List<String> parts = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    String name = in.readString();
                    parts.add(TypeNames.backQuoteIfNeeded(name) + " " + decode(in, depth + 1));
                }
                return (tag == 0x20 ? "Tuple(" : "Nested(") + String.join(", ", parts) + ")";
            }
            case 0x22: {
                int kind = in.readUInt8();
                if (kind >= INTERVAL_KINDS.length) {
                    throw new ClickHouseProtocolException("unknown interval kind " + kind + " in binary type encoding");
                }
                return "Interval" + INTERVAL_KINDS[kind];
            }
            case 0x23: return "Nullable(" + decode(in, depth + 1) + ")";
            case 0x26: return "LowCardinality(" + decode(in, depth + 1) + ")";
            case 0x27: {
                String k = decode(in, depth + 1);
                return "Map(" + k + ", " + decode(in, depth + 1) + ")";
            }
            case 0x28: return "IPv4";
            case 0x29: return "IPv6";
            case 0x2A: {
                int n = in.readCount(MAX_ITEMS, "variant count");
                List<String> parts = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    parts.add(decode(in, depth + 1));
                }
                parts.sort(TypeNames.UTF8_ORDER);
                return "Variant(" + String.join(", ", parts) + ")";
            }
            case 0x2B: return DynamicType.nameFor(in.readUInt8());
            case 0x2C: return in.readString();
            case 0x2D: return "Bool";
            case 0x2E: {
                String function = in.readString();
                int params = in.readCount(MAX_ITEMS, "aggregate function parameter count");
                if (params != 0) {
                    throw new ClickHouseProtocolException("SimpleAggregateFunction(" + function
                            + ") with parameters in binary type encoding is not supported");
                }
                int n = in.readCount(MAX_ITEMS, "aggregate function argument count");
                StringBuilder sb = new StringBuilder("SimpleAggregateFunction(").append(function);
                for (int i = 0; i < n; i++) {
                    sb.append(", ").append(decode(in, depth + 1));
                }
                return sb.append(')').toString();
            }
            case 0x30: return jsonName(in, depth);
            case 0x31: return "BFloat16";
            case 0x32: return "Time";
            case 0x34: return "Time64(" + in.readUInt8() + ")";
            case 0x36: {
                String element = decode(in, depth + 1);
                return "QBit(" + element + ", " + in.readVarUInt() + ")";
            }
            default:
                throw new ClickHouseProtocolException("unsupported binary type encoding tag 0x"
                        + Integer.toHexString(tag) + " (Set, Function, AggregateFunction and newer tags are not decoded)");
        }
    }

    private static String enumName(Bytes.Cursor in, String family, int width) {
        int n = in.readCount(MAX_ITEMS, "enum element count");
        StringBuilder sb = new StringBuilder(family).append('(');
        for (int i = 0; i < n; i++) {
            String name = in.readString();
            long v = in.readLong(width);
            v = width == 1 ? (byte) v : (short) v;
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(TypeNames.quote(name)).append(" = ").append(v);
        }
        return sb.append(')').toString();
    }

    /** JSON: version byte, VarUInt max_dynamic_paths, UInt8 max_dynamic_types, typed paths, SKIP paths, SKIP REGEXPs. */
    private static String jsonName(Bytes.Cursor in, int depth) {
        int version = in.readUInt8();
        if (version != 0) {
            throw new ClickHouseProtocolException("unsupported JSON type encoding version " + version);
        }
        long maxPaths = in.readVarUInt();
        int maxTypes = in.readUInt8();
        int typed = in.readCount(MAX_ITEMS, "JSON typed path count");
        List<String[]> typedPaths = new ArrayList<>();
        for (int i = 0; i < typed; i++) {
            String path = in.readString();
            typedPaths.add(new String[] {path, decode(in, depth + 1)});
        }
        int skips = in.readCount(MAX_ITEMS, "JSON skipped path count");
        List<String> skipPaths = new ArrayList<>();
        for (int i = 0; i < skips; i++) {
            skipPaths.add(in.readString());
        }
        int regexps = in.readCount(MAX_ITEMS, "JSON skipped regexp count");
        List<String> skipRegexps = new ArrayList<>();
        for (int i = 0; i < regexps; i++) {
            skipRegexps.add(in.readString());
        }
        return JsonType.nameFor(maxTypes, maxPaths, typedPaths, skipPaths, skipRegexps);
    }
}
