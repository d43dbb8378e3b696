package dev.clickhousetcp.spring.aot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.aot.hint.annotation.Reflective;
import org.springframework.core.annotation.AliasFor;

/**
 * Declares the records, beans and constructor-bound classes the application reads or inserts through the
 * client's mappers ({@code template.query(sql, Trade.class)}, {@code template.insert(table, trades)}, ...), so
 * that Spring's AOT processing registers them for reflection and they can be mapped in a GraalVM native image.
 * Put it on a {@code @Configuration} class or the {@code @SpringBootApplication} class (any bean class works):
 *
 * <pre>{@code
 * @SpringBootApplication
 * @ClickHouseMappedTypes(classes = { Trade.class, DailyVolume.class }, basePackages = "com.example.analytics.rows")
 * public class Application { ... }
 * }</pre>
 *
 * <p>Each class is registered with its declared constructors, public methods and declared fields (and those of
 * its superclasses), and so are, recursively, the application's types its properties use (nested records for
 * {@code Tuple} columns, enums, element types of lists and maps); JDK types need nothing. Classes in
 * {@link #basePackages()} (and their sub-packages) are found by scanning the class path at build time: every
 * concrete top-level or static nested class there is registered.
 *
 * <p>On the JVM the annotation does nothing. In a native image the client's mappers use
 * {@code java.lang.reflect} (its {@code AUTO} access mode resolves to {@code REFLECTION} when the
 * {@code org.graalvm.nativeimage.imagecode} system property is set), which needs exactly these registrations.
 * For types only known to code, call {@link ClickHouseMappingHints#registerMappedTypes} from a
 * {@code RuntimeHintsRegistrar}.
 *
 * @see ClickHouseMappingHints
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective(ClickHouseMappedTypesReflectiveProcessor.class)
public @interface ClickHouseMappedTypes {

    /**
     * Alias for {@link #classes()}.
     * @return the mapped classes
     */
    @AliasFor("classes")
    Class<?>[] value() default {};

    /**
     * The mapped classes.
     * @return the mapped classes
     */
    @AliasFor("value")
    Class<?>[] classes() default {};

    /**
     * Packages whose classes (including sub-packages) are all mapped types, found at build time.
     * @return the packages
     */
    String[] basePackages() default {};

    /**
     * Type-safe alternative to {@link #basePackages()}: the packages of these classes.
     * @return classes whose packages are scanned
     */
    Class<?>[] basePackageClasses() default {};
}
