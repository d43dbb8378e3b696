package dev.clickhousetcp.mapping;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a class offers for mapping, found once per class: how to create instances (a record's
 * canonical constructor, a {@link ClickHouseConstructor}, a no-arg constructor, or the only public
 * constructor), the properties settable after creation (setters, else fields) and the properties
 * readable for inserts (record accessors, getters, else fields). Immutable.
 */
final class TypeModel {
    private static final ClassValue<TypeModel> CACHE = new ClassValue<>() {
        @Override
        protected TypeModel computeValue(Class<?> type) {
            return new TypeModel(type);
        }
    };

    final Class<?> type;
    /** The constructor to call: with parameters ({@link #params} non-empty) or no-arg. */
    final Constructor<?> constructor;
    final List<Prop> params;
    final List<Prop> writable;
    final List<Prop> readable;
    /** Why instances cannot be created (abstract, interface, no usable constructor), or {@code null}. */
    final String notCreatable;

    static TypeModel of(Class<?> type) {
        return CACHE.get(type);
    }

    private TypeModel(Class<?> type) {
        this.type = type;
        Constructor<?> ctor = null;
        String problem = null;
        if (type.isInterface() || Modifier.isAbstract(type.getModifiers()) || type.isPrimitive() || type.isArray()
                || type.isEnum()) {
            problem = type.getName() + " is not a concrete class";
        } else if (type.isRecord()) {
            RecordComponent[] rc = type.getRecordComponents();
            Class<?>[] types = new Class<?>[rc.length];
            for (int i = 0; i < rc.length; i++) {
                types[i] = rc[i].getType();
            }
            try {
                ctor = type.getDeclaredConstructor(types);
            } catch (NoSuchMethodException e) {
                problem = "record " + type.getName() + " has no canonical constructor";
            }
        } else {
            List<Constructor<?>> annotated = new ArrayList<>();
            for (Constructor<?> c : type.getDeclaredConstructors()) {
                if (c.isAnnotationPresent(ClickHouseConstructor.class)) {
                    annotated.add(c);
                }
            }
            if (annotated.size() > 1) {
                problem = type.getName() + " has " + annotated.size() + " constructors annotated @ClickHouseConstructor";
            } else if (annotated.size() == 1) {
                ctor = annotated.get(0);
            } else {
                try {
                    ctor = type.getDeclaredConstructor();
                } catch (NoSuchMethodException e) {
                    List<Constructor<?>> pub = new ArrayList<>();
                    for (Constructor<?> c : type.getConstructors()) {
                        pub.add(c);
                    }
                    if (pub.size() == 1) {
                        ctor = pub.get(0);
                    } else {
                        problem = type.getName() + " has no no-arg constructor and " + pub.size()
                                + " public constructors; annotate the one to use with @ClickHouseConstructor";
                    }
                }
            }
            if (ctor != null && type.getEnclosingClass() != null && !Modifier.isStatic(type.getModifiers())) {
                problem = type.getName() + " is an inner (non-static) class; make it static";
                ctor = null;
            }
        }
        this.constructor = ctor;
        this.notCreatable = problem;
        this.params = ctor == null ? List.of() : params(type, ctor);
        this.writable = writable(type);
        this.readable = readable(type);
    }

    boolean hasConstructorParams() {
        return !params.isEmpty();
    }

    private static List<Prop> params(Class<?> type, Constructor<?> ctor) {
        List<Prop> out = new ArrayList<>();
        Parameter[] ps = ctor.getParameters();
        RecordComponent[] rc = type.isRecord() ? type.getRecordComponents() : null;
        for (int i = 0; i < ps.length; i++) {
            Parameter p = ps[i];
            String name;
            String column;
            if (rc != null) {
                name = rc[i].getName();
                ClickHouseColumn a = rc[i].getAnnotation(ClickHouseColumn.class);
                column = a != null ? a.value() : null;
            } else {
                ClickHouseColumn a = p.getAnnotation(ClickHouseColumn.class);
                column = a != null ? a.value() : null;
                if (!p.isNamePresent() && column == null) {
                    throw new MappingException("constructor " + ctor + " of " + type.getName() + ": parameter " + i
                            + " has no name; compile with -parameters or annotate it with @ClickHouseColumn");
                }
                name = p.isNamePresent() ? p.getName() : column;
            }
            out.add(new Prop(Prop.Kind.PARAM, type, name, column, p.getParameterizedType(), p.getType(), null, null, i));
        }
        return Collections.unmodifiableList(out);
    }

    /** Setters (public, one argument, {@code setX}) and non-final instance fields; a setter wins over its field. */
    private static List<Prop> writable(Class<?> type) {
        if (type.isRecord()) {
            return List.of();
        }
        Map<String, Prop> byName = new LinkedHashMap<>();
        for (Field f : fields(type)) {
            int m = f.getModifiers();
            if (Modifier.isFinal(m)) {
                continue;
            }
            byName.put(f.getName(), new Prop(Prop.Kind.FIELD, type, f.getName(), columnOf(f, null), f.getGenericType(),
                    f.getType(), null, f, -1));
        }
        for (Method m : type.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 1 || m.isBridge()
                    || m.getDeclaringClass() == Object.class) {
                continue;
            }
            String n = m.getName();
            if (n.length() > 3 && n.startsWith("set")) {
                String prop = decapitalize(n.substring(3));
                Prop field = byName.get(prop);
                String column = columnOf(m, field);
                byName.put(prop, new Prop(Prop.Kind.SETTER, type, prop, column, m.getGenericParameterTypes()[0],
                        m.getParameterTypes()[0], m, null, -1));
            }
        }
        return List.copyOf(byName.values());
    }

    /** Record accessors; else getters ({@code getX}/{@code isX}, public) and instance fields without a getter. */
    private static List<Prop> readable(Class<?> type) {
        Map<String, Prop> byName = new LinkedHashMap<>();
        if (type.isRecord()) {
            for (RecordComponent rc : type.getRecordComponents()) {
                ClickHouseColumn a = rc.getAnnotation(ClickHouseColumn.class);
                byName.put(rc.getName(), new Prop(Prop.Kind.GETTER, type, rc.getName(), a != null ? a.value() : null,
                        rc.getGenericType(), rc.getType(), rc.getAccessor(), null, -1));
            }
            return List.copyOf(byName.values());
        }
        for (Field f : fields(type)) {
            byName.put(f.getName(), new Prop(Prop.Kind.FIELD, type, f.getName(), columnOf(f, null), f.getGenericType(),
                    f.getType(), null, f, -1));
        }
        for (Method m : type.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 0 || m.isBridge()
                    || m.getDeclaringClass() == Object.class || m.getReturnType() == void.class) {
                continue;
            }
            String n = m.getName();
            String prop = null;
            if (n.length() > 3 && n.startsWith("get")) {
                prop = decapitalize(n.substring(3));
            } else if (n.length() > 2 && n.startsWith("is") && m.getReturnType() == boolean.class) {
                prop = decapitalize(n.substring(2));
            }
            if (prop != null) {
                Prop field = byName.get(prop);
                byName.put(prop, new Prop(Prop.Kind.GETTER, type, prop, columnOf(m, field), m.getGenericReturnType(),
                        m.getReturnType(), m, null, -1));
            }
        }
        return List.copyOf(byName.values());
    }

    /** {@code URL} stays, {@code Name} becomes {@code name} (the JavaBeans rule). */
    static String decapitalize(String s) {
        if (s.length() > 1 && Character.isUpperCase(s.charAt(0)) && Character.isUpperCase(s.charAt(1))) {
            return s;
        }
        return Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    /** The annotated column of a member, else of the field of the same property. */
    private static String columnOf(java.lang.reflect.AnnotatedElement e, Prop field) {
        ClickHouseColumn a = e.getAnnotation(ClickHouseColumn.class);
        if (a != null) {
            return a.value();
        }
        return field != null ? field.column : null;
    }

    /** Instance fields that are neither static, transient nor synthetic, superclasses first. */
    private static List<Field> fields(Class<?> type) {
        List<Class<?>> chain = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            chain.add(0, c);
        }
        List<Field> out = new ArrayList<>();
        for (Class<?> c : chain) {
            for (Field f : c.getDeclaredFields()) {
                int m = f.getModifiers();
                if (!Modifier.isStatic(m) && !Modifier.isTransient(m) && !f.isSynthetic()) {
                    out.add(f);
                }
            }
        }
        return out;
    }
}
