package dev.clickhousetcp.spring.aot;

import java.lang.reflect.AnnotatedElement;
import java.util.LinkedHashSet;
import java.util.Set;

import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.annotation.ReflectiveProcessor;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.util.ClassUtils;

/**
 * Processes {@link ClickHouseMappedTypes} during Spring's AOT processing: registers the listed classes and the
 * classes of the listed packages with {@link ClickHouseMappingHints}. Stateless and thread-safe; used by
 * Spring's {@code @Reflective} support, not by applications.
 */
class ClickHouseMappedTypesReflectiveProcessor implements ReflectiveProcessor {

    @Override
    public void registerReflectionHints(ReflectionHints hints, AnnotatedElement element) {
        MergedAnnotation<ClickHouseMappedTypes> annotation = MergedAnnotations.from(element)
            .get(ClickHouseMappedTypes.class);
        if (!annotation.isPresent()) {
            return;
        }
        ClassLoader classLoader = (element instanceof Class<?> type && type.getClassLoader() != null)
                ? type.getClassLoader() : ClassUtils.getDefaultClassLoader();
        Set<Class<?>> types = new LinkedHashSet<>(java.util.List.of(annotation.getClassArray("classes")));
        Set<String> packages = new LinkedHashSet<>(java.util.List.of(annotation.getStringArray("basePackages")));
        for (Class<?> marker : annotation.getClassArray("basePackageClasses")) {
            packages.add(marker.getPackageName());
        }
        for (String basePackage : packages) {
            types.addAll(scan(basePackage, classLoader));
        }
        ClickHouseMappingHints.registerMappedTypes(hints, types.toArray(new Class<?>[0]));
    }

    /** Every concrete top-level or static nested class in the package and its sub-packages. */
    static Set<Class<?>> scan(String basePackage, ClassLoader classLoader) {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.setResourceLoader(new DefaultResourceLoader(classLoader));
        scanner.addIncludeFilter((reader, factory) -> true);
        Set<Class<?>> found = new LinkedHashSet<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents(basePackage)) {
            String className = candidate.getBeanClassName();
            if (className != null) {
                found.add(ClassUtils.resolveClassName(className, classLoader));
            }
        }
        return found;
    }
}
