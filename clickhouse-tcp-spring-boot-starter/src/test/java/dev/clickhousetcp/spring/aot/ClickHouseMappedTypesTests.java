package dev.clickhousetcp.spring.aot;

import java.util.List;

import dev.clickhousetcp.spring.aot.scanned.ScannedKind;
import dev.clickhousetcp.spring.aot.scanned.ScannedRow;
import dev.clickhousetcp.spring.aot.scanned.sub.SubRow;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.annotation.ReflectiveRuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.javapoet.ClassName;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClickHouseMappedTypes} processed as Spring does at build time: directly through
 * {@link ReflectiveRuntimeHintsRegistrar}, and by a whole AOT run over an application context with the
 * auto-configuration.
 */
class ClickHouseMappedTypesTests {

    record Listed(long id, List<Detail> details) {
    }

    record Detail(String text) {
    }

    record Unlisted(long id) {
    }

    @Configuration(proxyBeanMethods = false)
    @ClickHouseMappedTypes(classes = Listed.class, basePackageClasses = ScannedRow.class)
    static class MappedConfiguration {
    }

    @Configuration(proxyBeanMethods = false)
    @ClickHouseMappedTypes(basePackages = "dev.clickhousetcp.spring.aot.scanned.sub")
    static class PackageConfiguration {
    }

    @Configuration(proxyBeanMethods = false)
    @ClickHouseMappedTypes(Listed.class)
    @ImportAutoConfiguration(ClickHouseTcpAutoConfiguration.class)
    static class ApplicationConfiguration {
    }

    @Test
    void listedClassesAndScannedPackagesAreRegistered() throws Exception {
        RuntimeHints hints = new RuntimeHints();
        new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(hints, MappedConfiguration.class);
        assertThat(RuntimeHintsPredicates.reflection()
            .onConstructorInvocation(Listed.class.getDeclaredConstructor(long.class, List.class))).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(Detail.class.getDeclaredConstructors()[0]))
            .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection()
            .onConstructorInvocation(ScannedRow.class.getDeclaredConstructor(long.class, ScannedKind.class)))
            .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ScannedRow.class, "kind")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(ScannedKind.class)).accepts(hints);
        // Sub-packages are scanned too.
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(SubRow.class, "setName")).accepts(hints);
        assertThat(hints.reflection().getTypeHint(Unlisted.class)).isNull();
    }

    @Test
    void aPackageAlone() {
        RuntimeHints hints = new RuntimeHints();
        new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(hints, PackageConfiguration.class);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(SubRow.class, "getName")).accepts(hints);
        assertThat(hints.reflection().getTypeHint(ScannedRow.class)).isNull();
    }

    @Test
    void aotProcessingOfAnApplicationRegistersMappedTypesAndTheClientsOwnHints() throws Exception {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.setEnvironment(new MockEnvironment().withProperty("clickhouse.tcp.port", "1"));
        context.register(ApplicationConfiguration.class);
        DefaultGenerationContext generation = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get(ApplicationConfiguration.class)), new InMemoryGeneratedFiles());
        new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
        RuntimeHints hints = generation.getRuntimeHints();
        assertThat(RuntimeHintsPredicates.reflection()
            .onConstructorInvocation(Listed.class.getDeclaredConstructor(long.class, List.class))).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(Detail.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection()
            .onFieldAccess(Class.forName("net.jpountz.lz4.LZ4JavaSafeFastDecompressor").getField("INSTANCE")))
            .accepts(hints);
        // The auto-configuration's beans were processed (their definitions are generated, not instantiated).
        assertThat(context.getBeanFactory().getBeanNamesForType(ClickHouseTcpTemplate.class)).hasSize(1);
        context.close();
    }
}
