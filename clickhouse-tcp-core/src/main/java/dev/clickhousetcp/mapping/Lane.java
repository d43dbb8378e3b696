package dev.clickhousetcp.mapping;

import java.util.Arrays;

/** The array shape one column is extracted into: a primitive array for primitive targets, else {@code Object[]}. */
enum Lane {
    LONG(long.class), INT(int.class), SHORT(short.class), BYTE(byte.class), DOUBLE(double.class), FLOAT(float.class),
    BOOLEAN(boolean.class), OBJECT(Object.class);

    final Class<?> javaType;

    Lane(Class<?> javaType) {
        this.javaType = javaType;
    }

    static Lane of(Class<?> c) {
        if (!c.isPrimitive()) {
            return OBJECT;
        }
        if (c == long.class) {
            return LONG;
        }
        if (c == int.class) {
            return INT;
        }
        if (c == short.class) {
            return SHORT;
        }
        if (c == byte.class) {
            return BYTE;
        }
        if (c == double.class) {
            return DOUBLE;
        }
        if (c == float.class) {
            return FLOAT;
        }
        if (c == boolean.class) {
            return BOOLEAN;
        }
        throw new MappingException("unsupported primitive type " + c);
    }

    Object newArray(int n) {
        return switch (this) {
            case LONG -> new long[n];
            case INT -> new int[n];
            case SHORT -> new short[n];
            case BYTE -> new byte[n];
            case DOUBLE -> new double[n];
            case FLOAT -> new float[n];
            case BOOLEAN -> new boolean[n];
            case OBJECT -> new Object[n];
        };
    }

    static int length(Object array) {
        return java.lang.reflect.Array.getLength(array);
    }

    /** {@code out[i] = dict[keys[i]]} for {@code i < n}. */
    void gather(Object dict, int[] keys, int n, Object out) {
        switch (this) {
            case LONG -> {
                long[] d = (long[]) dict;
                long[] o = (long[]) out;
                for (int i = 0; i < n; i++) {
                    o[i] = d[keys[i]];
                }
            }
            case INT -> {
                int[] d = (int[]) dict;
                int[] o = (int[]) out;
                for (int i = 0; i < n; i++) {
                    o[i] = d[keys[i]];
                }
            }
            case SHORT -> {
                short[] d = (short[]) dict;
                short[] o = (short[]) out;
                for (int i = 0; i < n; i++) {
                    o[i] = d[keys[i]];
                }
            }
            case BYTE -> {
                byte[] d = (byte[]) dict;
                byte[] o = (byte[]) out;
                for (int i = 0; i < n; i++) {
                    o[i] = d[keys[i]];
                }
            }
            case DOUBLE -> {
                double[] d = (double[]) dict;
                double[] o = (double[]) out;
                for (int i = 0; i < n; i++) {
                    o[i] = d[keys[i]];
                }
            }
            case FLOAT -> {
                float[] d = (float[]) dict;
                float[] o = (float[]) out;
                for (int i = 0; i < n; i++) {
                    o[i] = d[keys[i]];
                }
            }
            case BOOLEAN -> {
                boolean[] d = (boolean[]) dict;
                boolean[] o = (boolean[]) out;
                for (int i = 0; i < n; i++) {
                    o[i] = d[keys[i]];
                }
            }
            case OBJECT -> {
                Object[] d = (Object[]) dict;
                Object[] o = (Object[]) out;
                for (int i = 0; i < n; i++) {
                    o[i] = d[keys[i]];
                }
            }
        }
    }

    /** A copy of {@code [from, to)} of a lane array, as an array of the same class. */
    static Object slice(Object src, int from, int to) {
        if (src instanceof long[] a) {
            return Arrays.copyOfRange(a, from, to);
        }
        if (src instanceof int[] a) {
            return Arrays.copyOfRange(a, from, to);
        }
        if (src instanceof short[] a) {
            return Arrays.copyOfRange(a, from, to);
        }
        if (src instanceof byte[] a) {
            return Arrays.copyOfRange(a, from, to);
        }
        if (src instanceof double[] a) {
            return Arrays.copyOfRange(a, from, to);
        }
        if (src instanceof float[] a) {
            return Arrays.copyOfRange(a, from, to);
        }
        if (src instanceof boolean[] a) {
            return Arrays.copyOfRange(a, from, to);
        }
        return Arrays.copyOfRange((Object[]) src, from, to);
    }

    /** Element {@code i} of a lane array, boxed. */
    static Object boxed(Object array, int i) {
        return java.lang.reflect.Array.get(array, i);
    }
}
