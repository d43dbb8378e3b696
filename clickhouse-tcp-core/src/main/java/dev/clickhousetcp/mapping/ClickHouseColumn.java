package dev.clickhousetcp.mapping;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the ClickHouse column a property maps to, when the property's own name does not match it
 * by the default rules (exact, case-insensitive, snake_case to camelCase). Put it on a field, a
 * setter or getter, a record component or a constructor parameter. An annotated property matches
 * only the column it names (exactly).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
public @interface ClickHouseColumn {
    /**
     * The column name as the result or table spells it.
     *
     * @return the exact column name, e.g. {@code user_id}
     */
    String value();
}
