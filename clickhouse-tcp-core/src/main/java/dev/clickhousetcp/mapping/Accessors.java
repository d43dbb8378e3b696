package dev.clickhousetcp.mapping;

import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Member;
import java.lang.reflect.Method;

/**
 * Builds the setters, getters and constructors of a plan in the chosen {@link AccessMode}. Setters,
 * getters and no-arg constructors become {@code LambdaMetafactory} lambdas in {@link AccessMode#LAMBDA}
 * (fields, which it cannot target, use method handles); multi-argument constructors become one
 * method-handle tree {@code (lanes, row) -> new T(lane0[row], lane1[row], ...)} that reads primitive
 * arguments without boxing. {@link AccessMode#REFLECTION} uses {@code java.lang.reflect} only.
 * A LambdaMetafactory failure (a class loader that cannot see {@link Access}, a module that is not
 * open) falls back to method handles, and a method-handle failure to reflection.
 */
final class Accessors {
    private Accessors() {
    }

    private static MethodHandles.Lookup lookup(Class<?> owner) throws IllegalAccessException {
        return MethodHandles.privateLookupIn(owner, MethodHandles.lookup());
    }

    private static Class<?> laneType(Lane lane) {
        return lane.javaType;
    }

    private static Class<?> setterInterface(Lane lane) {
        return switch (lane) {
            case LONG -> Access.LongSetter.class;
            case INT -> Access.IntSetter.class;
            case SHORT -> Access.ShortSetter.class;
            case BYTE -> Access.ByteSetter.class;
            case DOUBLE -> Access.DoubleSetter.class;
            case FLOAT -> Access.FloatSetter.class;
            case BOOLEAN -> Access.BooleanSetter.class;
            case OBJECT -> Access.ObjectSetter.class;
        };
    }

    private static Class<?> getterInterface(Lane lane) {
        return switch (lane) {
            case LONG -> Access.LongGetter.class;
            case INT -> Access.IntGetter.class;
            case SHORT -> Access.ShortGetter.class;
            case BYTE -> Access.ByteGetter.class;
            case DOUBLE -> Access.DoubleGetter.class;
            case FLOAT -> Access.FloatGetter.class;
            case BOOLEAN -> Access.BooleanGetter.class;
            case OBJECT -> Access.ObjectGetter.class;
        };
    }

    // ---------------------------------------------------------------- setters

    /** A setter of {@code p} (a setter method or a field) as the {@code Access.*Setter} of its lane. */
    static Object setter(AccessMode mode, Prop p) {
        Lane lane = Lane.of(p.raw);
        if (mode == AccessMode.LAMBDA && p.method != null) {
            try {
                MethodHandles.Lookup l = lookup(p.owner);
                MethodHandle mh = l.unreflect(p.method);
                MethodType sam = MethodType.methodType(void.class, Object.class, laneType(lane));
                MethodType inst = MethodType.methodType(void.class, p.owner, p.raw);
                CallSite cs = LambdaMetafactory.metafactory(l, "set", MethodType.methodType(setterInterface(lane)), sam,
                        mh, inst);
                return cs.getTarget().invoke();
            } catch (Throwable e) {
                mode = AccessMode.METHOD_HANDLES;
            }
        }
        if (mode != AccessMode.REFLECTION) {
            try {
                MethodHandles.Lookup l = lookup(p.owner);
                MethodHandle mh = p.method != null ? l.unreflect(p.method) : l.unreflectSetter(p.field);
                return mhSetter(lane, mh.asType(MethodType.methodType(void.class, Object.class, laneType(lane))));
            } catch (IllegalAccessException | RuntimeException e) {
                // fall back to reflection
            }
        }
        return reflectiveSetter(lane, p);
    }

    private static Object mhSetter(Lane lane, MethodHandle g) {
        return switch (lane) {
            case LONG -> (Access.LongSetter) (t, v) -> {
                try {
                    g.invokeExact(t, v);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
            case INT -> (Access.IntSetter) (t, v) -> {
                try {
                    g.invokeExact(t, v);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
            case SHORT -> (Access.ShortSetter) (t, v) -> {
                try {
                    g.invokeExact(t, v);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
            case BYTE -> (Access.ByteSetter) (t, v) -> {
                try {
                    g.invokeExact(t, v);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
            case DOUBLE -> (Access.DoubleSetter) (t, v) -> {
                try {
                    g.invokeExact(t, v);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
            case FLOAT -> (Access.FloatSetter) (t, v) -> {
                try {
                    g.invokeExact(t, v);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
            case BOOLEAN -> (Access.BooleanSetter) (t, v) -> {
                try {
                    g.invokeExact(t, v);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
            case OBJECT -> (Access.ObjectSetter) (t, v) -> {
                try {
                    g.invokeExact(t, v);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
        };
    }

    private static Object reflectiveSetter(Lane lane, Prop p) {
        Member m = p.method != null ? p.method : p.field;
        makeAccessible(m, p);
        Access.ObjectSetter s = p.method != null ? (t, v) -> {
            try {
                p.method.invoke(t, v);
            } catch (InvocationTargetException e) {
                throw rethrow(e.getCause());
            } catch (IllegalAccessException e) {
                throw new MappingException("cannot call " + p.describe(), e);
            }
        } : (t, v) -> {
            try {
                p.field.set(t, v);
            } catch (IllegalAccessException e) {
                throw new MappingException("cannot set " + p.describe(), e);
            }
        };
        return switch (lane) {
            case LONG -> (Access.LongSetter) s::set;
            case INT -> (Access.IntSetter) s::set;
            case SHORT -> (Access.ShortSetter) s::set;
            case BYTE -> (Access.ByteSetter) s::set;
            case DOUBLE -> (Access.DoubleSetter) s::set;
            case FLOAT -> (Access.FloatSetter) s::set;
            case BOOLEAN -> (Access.BooleanSetter) s::set;
            case OBJECT -> s;
        };
    }

    // ---------------------------------------------------------------- getters

    /** A getter of {@code p} (a getter, record accessor or field) as the {@code Access.*Getter} of its lane. */
    static Object getter(AccessMode mode, Prop p) {
        Lane lane = Lane.of(p.raw);
        if (mode == AccessMode.LAMBDA && p.method != null) {
            try {
                MethodHandles.Lookup l = lookup(p.owner);
                MethodHandle mh = l.unreflect(p.method);
                MethodType sam = MethodType.methodType(laneType(lane), Object.class);
                MethodType inst = MethodType.methodType(p.raw, p.owner);
                CallSite cs = LambdaMetafactory.metafactory(l, "get", MethodType.methodType(getterInterface(lane)), sam,
                        mh, inst);
                return cs.getTarget().invoke();
            } catch (Throwable e) {
                mode = AccessMode.METHOD_HANDLES;
            }
        }
        if (mode != AccessMode.REFLECTION) {
            try {
                MethodHandles.Lookup l = lookup(p.owner);
                MethodHandle mh = p.method != null ? l.unreflect(p.method) : l.unreflectGetter(p.field);
                return mhGetter(lane, mh.asType(MethodType.methodType(laneType(lane), Object.class)));
            } catch (IllegalAccessException | RuntimeException e) {
                // fall back to reflection
            }
        }
        return reflectiveGetter(lane, p);
    }

    private static Object mhGetter(Lane lane, MethodHandle g) {
        return switch (lane) {
            case LONG -> (Access.LongGetter) t -> {
                try {
                    return (long) g.invokeExact(t);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
            case INT -> (Access.IntGetter) t -> {
                try {
                    return (int) g.invokeExact(t);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
            case SHORT -> (Access.ShortGetter) t -> {
                try {
                    return (short) g.invokeExact(t);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
            case BYTE -> (Access.ByteGetter) t -> {
                try {
                    return (byte) g.invokeExact(t);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
            case DOUBLE -> (Access.DoubleGetter) t -> {
                try {
                    return (double) g.invokeExact(t);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
            case FLOAT -> (Access.FloatGetter) t -> {
                try {
                    return (float) g.invokeExact(t);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
            case BOOLEAN -> (Access.BooleanGetter) t -> {
                try {
                    return (boolean) g.invokeExact(t);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
            case OBJECT -> (Access.ObjectGetter) t -> {
                try {
                    return (Object) g.invokeExact(t);
                } catch (Throwable e) {
                    throw rethrow(e);
                }
            };
        };
    }

    private static Object reflectiveGetter(Lane lane, Prop p) {
        Member m = p.method != null ? p.method : p.field;
        makeAccessible(m, p);
        Access.ObjectGetter g = p.method != null ? t -> {
            try {
                return p.method.invoke(t);
            } catch (InvocationTargetException e) {
                throw rethrow(e.getCause());
            } catch (IllegalAccessException e) {
                throw new MappingException("cannot call " + p.describe(), e);
            }
        } : t -> {
            try {
                return p.field.get(t);
            } catch (IllegalAccessException e) {
                throw new MappingException("cannot read " + p.describe(), e);
            }
        };
        return switch (lane) {
            case LONG -> (Access.LongGetter) t -> (Long) g.get(t);
            case INT -> (Access.IntGetter) t -> (Integer) g.get(t);
            case SHORT -> (Access.ShortGetter) t -> (Short) g.get(t);
            case BYTE -> (Access.ByteGetter) t -> (Byte) g.get(t);
            case DOUBLE -> (Access.DoubleGetter) t -> (Double) g.get(t);
            case FLOAT -> (Access.FloatGetter) t -> (Float) g.get(t);
            case BOOLEAN -> (Access.BooleanGetter) t -> (Boolean) g.get(t);
            case OBJECT -> g;
        };
    }

    // ---------------------------------------------------------------- constructors

    /** Calls the no-arg constructor {@code c}. */
    static Access.Instantiator instantiator(AccessMode mode, Constructor<?> c) {
        Class<?> owner = c.getDeclaringClass();
        if (mode == AccessMode.LAMBDA) {
            try {
                MethodHandles.Lookup l = lookup(owner);
                MethodHandle mh = l.unreflectConstructor(c);
                CallSite cs = LambdaMetafactory.metafactory(l, "create", MethodType.methodType(Access.Instantiator.class),
                        MethodType.methodType(Object.class), mh, MethodType.methodType(owner));
                return (Access.Instantiator) cs.getTarget().invoke();
            } catch (Throwable e) {
                mode = AccessMode.METHOD_HANDLES;
            }
        }
        if (mode == AccessMode.METHOD_HANDLES) {
            try {
                MethodHandle mh = lookup(owner).unreflectConstructor(c).asType(MethodType.methodType(Object.class));
                return () -> {
                    try {
                        return (Object) mh.invokeExact();
                    } catch (Throwable e) {
                        throw rethrow(e);
                    }
                };
            } catch (IllegalAccessException | RuntimeException e) {
                // fall back to reflection
            }
        }
        makeAccessible(c, null);
        return () -> {
            try {
                return c.newInstance();
            } catch (InvocationTargetException e) {
                throw rethrow(e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new MappingException("cannot call constructor " + c, e);
            }
        };
    }

    /**
     * Calls constructor {@code c} with the arguments of one row read from per-parameter lane arrays
     * ({@code long[]} for a {@code long} parameter, {@code Object[]} for a reference parameter, ...).
     */
    static Access.RowConstructor rowConstructor(AccessMode mode, Constructor<?> c) {
        Class<?>[] pts = c.getParameterTypes();
        if (mode != AccessMode.REFLECTION) {
            try {
                MethodHandle tree = tree(lookup(c.getDeclaringClass()).unreflectConstructor(c), pts);
                return (lanes, row) -> {
                    try {
                        return (Object) tree.invokeExact(lanes, row);
                    } catch (Throwable e) {
                        throw rethrow(e);
                    }
                };
            } catch (IllegalAccessException | RuntimeException e) {
                // too many parameters for one method handle, or not accessible: reflection
            }
        }
        makeAccessible(c, null);
        return (lanes, row) -> {
            Object[] args = new Object[pts.length];
            for (int k = 0; k < args.length; k++) {
                args[k] = Lane.boxed(lanes[k], row);
            }
            try {
                return c.newInstance(args);
            } catch (InvocationTargetException e) {
                throw rethrow(e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new MappingException("cannot call constructor " + c, e);
            }
        };
    }

    /** {@code (Object[] lanes, int row) -> ctor(((P0[]) lanes[0])[row], ...)} as one method handle. */
    static MethodHandle tree(MethodHandle ctor, Class<?>[] pts) {
        MethodHandle mh = ctor.asType(ctor.type().changeReturnType(Object.class));
        MethodHandle laneOf = MethodHandles.arrayElementGetter(Object[].class);
        for (int k = pts.length - 1; k >= 0; k--) {
            Lane lane = Lane.of(pts[k]);
            Class<?> arr = lane == Lane.OBJECT ? Object[].class : java.lang.reflect.Array.newInstance(lane.javaType, 0)
                    .getClass();
            MethodHandle elem = MethodHandles.arrayElementGetter(arr);
            if (lane == Lane.OBJECT) {
                elem = elem.asType(MethodType.methodType(pts[k], Object[].class, int.class));
            }
            MethodHandle lk = MethodHandles.insertArguments(laneOf, 1, k).asType(MethodType.methodType(arr, Object[].class));
            MethodHandle get = MethodHandles.filterArguments(elem, 0, lk);
            mh = MethodHandles.collectArguments(mh, k, get);
        }
        int[] reorder = new int[pts.length * 2];
        for (int k = 0; k < pts.length; k++) {
            reorder[2 * k] = 0;
            reorder[2 * k + 1] = 1;
        }
        return MethodHandles.permuteArguments(mh, MethodType.methodType(Object.class, Object[].class, int.class), reorder);
    }

    private static void makeAccessible(Member m, Prop p) {
        if (m instanceof java.lang.reflect.AccessibleObject ao && !ao.trySetAccessible()) {
            java.lang.reflect.AccessibleObject x = ao;
            if (!(m instanceof Method mm && java.lang.reflect.Modifier.isPublic(mm.getModifiers()))
                    && !(m instanceof Field f && java.lang.reflect.Modifier.isPublic(f.getModifiers()))
                    && !(m instanceof Constructor<?> cc && java.lang.reflect.Modifier.isPublic(cc.getModifiers()))) {
                throw new MappingException("cannot access " + (p != null ? p.describe() : x.toString())
                        + ": make it public or open its package to dev.clickhousetcp");
            }
        }
    }

    static RuntimeException rethrow(Throwable e) {
        if (e instanceof RuntimeException r) {
            return r;
        }
        if (e instanceof Error err) {
            throw err;
        }
        return new MappingException("mapped class threw " + e, e);
    }
}
