package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.mapping.ClickHouseColumn;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The elements of a Java value for one Tuple type, in the tuple's element order. A {@code List}, an object
 * array or a primitive array gives them by position. For a named tuple (every element named) a record, a
 * JavaBean (public {@code getX()}/{@code isX()} methods) or a {@code java.util.Map} gives them by element
 * name; for an unnamed tuple a record gives them by position. Element names meet property names by the rules
 * the object mappers use for columns (which is how a named tuple reads into a record): a property annotated
 * {@link ClickHouseColumn} matches exactly the name it gives, others match by exact name, else ignoring
 * case, else ignoring case and underscores. Map keys are the element names exactly. An object whose
 * properties (or keys) are not exactly the tuple's elements is refused, naming what is missing and what is
 * extra.
 *
 * <p>The getters of a class are matched to the elements once per (tuple type, class) and kept here;
 * thread-safe.
 */
final class TupleValues {
    private final TupleType type;
    /** The element names, or {@code null} when the tuple is not named. */
    private final String[] names;
    /**
     * Per class: its getters in element order (named tuple), or a record's accessors in component order; or
     * the message saying why the class does not fit, so a refused class is not planned again per value.
     */
    private final Map<Class<?>, Object> plans = new ConcurrentHashMap<>();

    TupleValues(TupleType type, String[] names) {
        this.type = type;
        boolean named = names.length > 0;
        for (String n : names) {
            named &= n != null && !n.isEmpty();
        }
        this.names = named ? names : null;
    }

    /** Whether every element has a name (and there are elements). */
    boolean named() {
        return names != null;
    }

    /**
     * The elements of {@code value}, in element order; for a record into an unnamed tuple, its components
     * in order (the caller checks the count).
     *
     * @throws ClickHouseTypeException when the value is of no accepted kind, or its properties do not match the
     *                                 elements' names
     */
    Object[] parts(Object value) {
        if (value instanceof List<?> l) {
            return l.toArray();
        }
        if (value instanceof Object[] a) {
            return a;
        }
        if (value != null && value.getClass().isArray()) {
            Object[] a = new Object[Array.getLength(value)];
            for (int i = 0; i < a.length; i++) {
                a[i] = Array.get(value, i);
            }
            return a;
        }
        if (names != null && value instanceof Map<?, ?> m) {
            return fromMap(m);
        }
        if (value instanceof Record || names != null && isBean(value)) {
            Object plan = plans.computeIfAbsent(value.getClass(), this::planOrReason);
            if (plan instanceof String reason) {
                throw new ClickHouseTypeException(reason);
            }
            return read(value, (Method[]) plan);
        }
        throw ColumnWriter.cannotConvert(type, value);
    }

    /**
     * The elements of a list, an array (not {@code byte[]}), or a record, a JavaBean or a map (the last two
     * for a named tuple) whose components, properties or keys match, for telling whether a Variant or
     * Dynamic value fits this tuple; {@code null} for anything else. Never throws.
     */
    List<Object> partsOrNull(Object v) {
        if (v instanceof List<?> l) {
            return new ArrayList<>(l);
        }
        if (v instanceof Record || names != null && (v instanceof Map<?, ?> || isBean(v))) {
            try {
                return Arrays.asList(parts(v));
            } catch (ClickHouseTypeException e) {
                return null;
            }
        }
        if (v.getClass().isArray() && !(v instanceof byte[])) {
            return ValueTypes.elements(v);
        }
        return null;
    }

    private Object[] fromMap(Map<?, ?> m) {
        Object[] out = new Object[names.length];
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            out[i] = m.get(names[i]);
            if (out[i] == null && !m.containsKey(names[i])) {
                missing.add(names[i]);
            }
        }
        if (missing.isEmpty() && m.size() == names.length) {
            return out;
        }
        Set<String> known = new HashSet<>(Arrays.asList(names));
        List<String> extra = new ArrayList<>();
        for (Object k : m.keySet()) {
            if (!(k instanceof String s) || !known.contains(s)) {
                extra.add(String.valueOf(k));
            }
        }
        throw mismatch("a Map", missing, extra, "key");
    }

    private Object[] read(Object value, Method[] getters) {
        Object[] out = new Object[getters.length];
        try {
            for (int i = 0; i < out.length; i++) {
                out[i] = getters[i].invoke(value);
            }
        } catch (InvocationTargetException e) {
            throw new ClickHouseTypeException("cannot read " + value.getClass().getName() + " as " + type.name() + ": "
                    + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new ClickHouseTypeException("cannot read " + value.getClass().getName() + " as " + type.name(), e);
        }
        return out;
    }

    /** A JavaBean: an object of a class outside the JDK that is no record, collection, map, enum or array. */
    private static boolean isBean(Object v) {
        if (v == null) {
            return false;
        }
        Class<?> c = v.getClass();
        return !c.isArray() && !c.isEnum() && !(v instanceof Collection<?>) && !(v instanceof Map<?, ?>)
                && !c.getName().startsWith("java.") && !c.getName().startsWith("javax.");
    }

    /** One readable property: its name, the name a {@link ClickHouseColumn} gives it (or null), its getter. */
    private record Prop(String name, String column, Method getter) {
    }

    private Object planOrReason(Class<?> cls) {
        try {
            return plan(cls);
        } catch (ClickHouseTypeException e) {
            return e.getMessage();
        }
    }

    private Method[] plan(Class<?> cls) {
        List<Prop> props = cls.isRecord() ? components(cls) : getters(cls);
        for (Prop p : props) {
            p.getter.trySetAccessible(); // records and beans nested in non-public classes
        }
        if (names == null) {
            Method[] out = new Method[props.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = props.get(i).getter;
            }
            return out;
        }
        Method[] out = new Method[names.length];
        List<Prop> used = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (int e = 0; e < names.length; e++) {
            List<Prop> found = match(names[e], props);
            if (found.size() > 1) {
                throw new ClickHouseTypeException("element '" + names[e] + "' of " + type.name() + " matches several "
                        + "properties of " + cls.getName() + ": " + found.stream().map(Prop::name).toList());
            }
            if (found.isEmpty() || used.contains(found.get(0))) {
                missing.add(names[e]);
                continue;
            }
            used.add(found.get(0));
            out[e] = found.get(0).getter;
        }
        List<String> extra = new ArrayList<>();
        for (Prop p : props) {
            if (!used.contains(p)) {
                extra.add(p.name);
            }
        }
        if (!missing.isEmpty() || !extra.isEmpty()) {
            String what = cls.isRecord() ? "record " + cls.getName() : "class " + cls.getName();
            throw mismatch(what, missing, extra, cls.isRecord() ? "component" : "property");
        }
        return out;
    }

    private ClickHouseTypeException mismatch(String what, List<String> missing, List<String> extra, String member) {
        StringBuilder sb = new StringBuilder(what).append(" does not match the elements of ").append(type.name())
                .append(" (named elements are filled by name):");
        if (!missing.isEmpty()) {
            sb.append(" no ").append(member).append(" for element ").append(quote(missing)).append(';');
        }
        if (!extra.isEmpty()) {
            sb.append(' ').append(member).append(extra.size() > 1 ? "s " : " ").append(quote(extra))
                    .append(extra.size() > 1 ? " are" : " is").append(" no element of it;");
        }
        sb.setLength(sb.length() - 1);
        return new ClickHouseTypeException(sb.toString());
    }

    private static String quote(List<String> names) {
        StringBuilder sb = new StringBuilder();
        for (String n : names) {
            sb.append(sb.length() == 0 ? "" : ", ").append('\'').append(n).append('\'');
        }
        return sb.toString();
    }

    /** The properties {@code element} names: annotated exactly, else by exact name, else ignoring case, else underscores. */
    private static List<Prop> match(String element, List<Prop> props) {
        List<Prop> found = new ArrayList<>();
        for (Prop p : props) {
            if (element.equals(p.column)) {
                found.add(p);
            }
        }
        for (int rule = 0; rule < 3 && found.isEmpty(); rule++) {
            for (Prop p : props) {
                boolean ok = p.column == null && switch (rule) {
                    case 0 -> p.name.equals(element);
                    case 1 -> p.name.equalsIgnoreCase(element);
                    default -> normalize(p.name).equals(normalize(element));
                };
                if (ok) {
                    found.add(p);
                }
            }
        }
        return found;
    }

    private static String normalize(String s) {
        return s.replace("_", "").toLowerCase(Locale.ROOT);
    }

    private static List<Prop> components(Class<?> cls) {
        List<Prop> out = new ArrayList<>();
        for (RecordComponent rc : cls.getRecordComponents()) {
            ClickHouseColumn a = rc.getAnnotation(ClickHouseColumn.class);
            out.add(new Prop(rc.getName(), a == null ? null : a.value(), rc.getAccessor()));
        }
        return out;
    }

    /**
     * The tuple element name a record component fills: the name its {@link ClickHouseColumn} gives, else its
     * own (the element names of the tuple type a Dynamic column infers for a record).
     */
    static String elementName(RecordComponent rc) {
        ClickHouseColumn a = rc.getAnnotation(ClickHouseColumn.class);
        return a == null ? rc.getName() : a.value();
    }

    /** Public {@code getX()} (and {@code boolean isX()}) methods, in a stable order; an annotated field names its getter's element. */
    private static List<Prop> getters(Class<?> cls) {
        Method[] methods = cls.getMethods();
        Arrays.sort(methods, java.util.Comparator.comparing(Method::getName));
        List<Prop> out = new ArrayList<>();
        for (Method m : methods) {
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
                ClickHouseColumn a = m.getAnnotation(ClickHouseColumn.class);
                if (a == null) {
                    a = fieldAnnotation(cls, prop);
                }
                out.add(new Prop(prop, a == null ? null : a.value(), m));
            }
        }
        return out;
    }

    private static ClickHouseColumn fieldAnnotation(Class<?> cls, String name) {
        for (Class<?> c = cls; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.getName().equals(name)) {
                    return f.getAnnotation(ClickHouseColumn.class);
                }
            }
        }
        return null;
    }

    /** {@code URL} stays, {@code Name} becomes {@code name} (the JavaBeans rule). */
    private static String decapitalize(String s) {
        if (s.length() > 1 && Character.isUpperCase(s.charAt(0)) && Character.isUpperCase(s.charAt(1))) {
            return s;
        }
        return Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }
}
