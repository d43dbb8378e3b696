package dev.clickhousetcp.spring.aot;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Registers classes mapped by the client's compiled mappers (records, beans, constructor-bound classes) for
 * reflection, as its {@code REFLECTION} access mode needs them in a GraalVM native image: declared
 * constructors (the canonical, no-arg or {@code @ClickHouseConstructor} one, of any visibility), public
 * methods (setters, getters, record accessors), declared fields of the class and its superclasses (field
 * access, {@code @ClickHouseColumn}). The application's types that properties use — nested records, enums,
 * element, key and value types of collections, maps and arrays — are registered the same way, recursively;
 * JDK types are left out.
 *
 * <p>{@link ClickHouseMappedTypes} calls this at build time; call it yourself from a {@link RuntimeHintsRegistrar}
 * (imported with {@code @ImportRuntimeHints}) for types chosen by code:
 *
 * <pre>{@code
 * class RowTypesHints implements RuntimeHintsRegistrar {
 *     public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
 *         ClickHouseMappingHints.registerMappedTypes(hints.reflection(), Trade.class, Quote.class);
 *     }
 * }
 * }</pre>
 *
 * <p>Stateless and thread-safe.
 */
public final class ClickHouseMappingHints {

    /** What a mapped class needs. */
    private static final MemberCategory[] MAPPED = { MemberCategory.INVOKE_DECLARED_CONSTRUCTORS,
            MemberCategory.INVOKE_PUBLIC_METHODS, MemberCategory.ACCESS_DECLARED_FIELDS };

    /** What a superclass of a mapped class needs: its fields and the public setters and getters it declares. */
    private static final MemberCategory[] SUPERCLASS = { MemberCategory.INVOKE_PUBLIC_METHODS,
            MemberCategory.ACCESS_DECLARED_FIELDS };

    private ClickHouseMappingHints() {
    }

    /**
     * Registers mapped classes, and the application's types their properties use.
     * @param hints the reflection hints to add to
     * @param types records, beans or constructor-bound classes; JDK types, primitives and arrays of them are
     * skipped
     */
    public static void registerMappedTypes(ReflectionHints hints, Class<?>... types) {
        Objects.requireNonNull(hints, "hints");
        Set<Class<?>> seen = new HashSet<>();
        Deque<Class<?>> pending = new ArrayDeque<>();
        for (Class<?> type : types) {
            enqueue(Objects.requireNonNull(type, "type"), seen, pending);
        }
        while (!pending.isEmpty()) {
            Class<?> type = pending.poll();
            if (type.isEnum()) {
                hints.registerType(type, MemberCategory.INVOKE_PUBLIC_METHODS);
                continue;
            }
            hints.registerType(type, MAPPED);
            for (Class<?> c = type.getSuperclass(); c != null && c != Object.class && c != Record.class;
                    c = c.getSuperclass()) {
                if (!isJdkType(c)) {
                    hints.registerType(c, SUPERCLASS);
                }
            }
            for (Type used : propertyTypes(type)) {
                enqueueAll(used, seen, pending);
            }
        }
    }

    /** The generic types of everything the mappers may bind: record components, constructors, setters, getters, fields. */
    private static Set<Type> propertyTypes(Class<?> type) {
        Set<Type> out = new HashSet<>();
        if (type.isRecord()) {
            for (RecordComponent component : type.getRecordComponents()) {
                out.add(component.getGenericType());
            }
        }
        for (Constructor<?> constructor : type.getDeclaredConstructors()) {
            out.addAll(java.util.List.of(constructor.getGenericParameterTypes()));
        }
        for (Method method : type.getMethods()) {
            if (Modifier.isStatic(method.getModifiers()) || method.getDeclaringClass() == Object.class
                    || method.isBridge()) {
                continue;
            }
            String name = method.getName();
            if (method.getParameterCount() == 1 && name.startsWith("set")) {
                out.add(method.getGenericParameterTypes()[0]);
            }
            else if (method.getParameterCount() == 0 && (name.startsWith("get") || name.startsWith("is"))) {
                out.add(method.getGenericReturnType());
            }
        }
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers()) && !field.isSynthetic()) {
                    out.add(field.getGenericType());
                }
            }
        }
        return out;
    }

    private static void enqueueAll(Type type, Set<Class<?>> seen, Deque<Class<?>> pending) {
        if (type instanceof Class<?> c) {
            enqueue(c, seen, pending);
        }
        else if (type instanceof ParameterizedType p) {
            enqueueAll(p.getRawType(), seen, pending);
            for (Type argument : p.getActualTypeArguments()) {
                enqueueAll(argument, seen, pending);
            }
        }
        else if (type instanceof GenericArrayType a) {
            enqueueAll(a.getGenericComponentType(), seen, pending);
        }
        else if (type instanceof WildcardType w) {
            for (Type bound : w.getUpperBounds()) {
                enqueueAll(bound, seen, pending);
            }
            for (Type bound : w.getLowerBounds()) {
                enqueueAll(bound, seen, pending);
            }
        }
        else if (type instanceof TypeVariable<?> v) {
            for (Type bound : v.getBounds()) {
                enqueueAll(bound, seen, pending);
            }
        }
    }

    private static void enqueue(Class<?> type, Set<Class<?>> seen, Deque<Class<?>> pending) {
        Class<?> c = type;
        while (c.isArray()) {
            c = c.getComponentType();
        }
        if (c.isPrimitive() || c.isInterface() || c.isAnnotation() || isJdkType(c) || !seen.add(c)) {
            return;
        }
        pending.add(c);
    }

    private static boolean isJdkType(Class<?> type) {
        String name = type.getName();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.") || name.startsWith("com.sun.");
    }
}
