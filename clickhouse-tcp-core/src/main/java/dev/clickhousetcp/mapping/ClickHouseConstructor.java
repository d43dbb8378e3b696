package dev.clickhousetcp.mapping;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the constructor the mapper calls to create objects of a class: each parameter is bound to
 * the column named by its {@link ClickHouseColumn} annotation or, without one, by its parameter name
 * (compile with {@code -parameters}). At most one constructor of a class may carry it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.CONSTRUCTOR)
public @interface ClickHouseConstructor {
}
