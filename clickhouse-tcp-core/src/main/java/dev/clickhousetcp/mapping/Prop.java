package dev.clickhousetcp.mapping;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Type;

/**
 * One property of a mapped class: a constructor parameter, a setter, a getter/accessor or a field.
 * Immutable.
 */
final class Prop {
    enum Kind { PARAM, SETTER, GETTER, FIELD }

    final Kind kind;
    final String name;
    /** The column named by {@link ClickHouseColumn}, or {@code null}. */
    final String column;
    final Type type;
    final Class<?> raw;
    final Method method;
    final Field field;
    final int index;
    final Class<?> owner;

    Prop(Kind kind, Class<?> owner, String name, String column, Type type, Class<?> raw, Method method, Field field,
         int index) {
        this.kind = kind;
        this.owner = owner;
        this.name = name;
        this.column = column;
        this.type = type;
        this.raw = raw;
        this.method = method;
        this.field = field;
        this.index = index;
    }

    /** E.g. {@code Trade.price (double, setter)}. */
    String describe() {
        String how = switch (kind) {
            case PARAM -> "constructor parameter";
            case SETTER -> "setter";
            case GETTER -> "getter";
            case FIELD -> "field";
        };
        return owner.getSimpleName() + "." + name + " (" + type.getTypeName().replace("java.lang.", "") + ", " + how + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}
