package dev.clickhousetcp.testsupport;

import dev.clickhousetcp.testsupport.ClickHouseServer.Kind;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that injects running ClickHouse servers.
 *
 * <p>Resolves every constructor, lifecycle-method ({@code @BeforeAll}, {@code @BeforeEach}, ...) and
 * test-method parameter of type {@link ClickHouseServer}: the legacy server (18.16) if the parameter
 * is annotated {@link LegacyServer}, the modern one (26.7) otherwise. Servers come from
 * {@link ClickHouseServers}, which starts them when needed.
 *
 * <p>Before each test it checks again that the servers the test class (or an enclosing class) has
 * received are alive, and restarts any that died — so a server injected once into a constructor or a
 * {@code @BeforeAll} method is usable by every test of the class, even after an earlier test crashed it.
 *
 * <p>Register it with {@link ClickHouseTest} (which also tags the tests {@code clickhouse}) or
 * {@code @ExtendWith(ClickHouseServerExtension.class)}. Stateless apart from a thread-safe record of
 * which kinds each test class used; safe under parallel test execution.
 *
 * <p>Failures: a server that cannot be started surfaces as {@link ParameterResolutionException} during
 * parameter resolution, and as {@link IllegalStateException} from {@link #beforeEach}.
 */
public final class ClickHouseServerExtension implements ParameterResolver, BeforeEachCallback {

    /** Kinds resolved for each test class. */
    private static final Map<Class<?>, Set<Kind>> USED = new ConcurrentHashMap<>();

    /** Creates the extension; JUnit does this for {@code @ExtendWith}. */
    public ClickHouseServerExtension() {
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == ClickHouseServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        Kind kind = parameterContext.isAnnotated(LegacyServer.class) ? Kind.LEGACY : Kind.MODERN;
        ClickHouseServer server;
        try {
            server = ClickHouseServers.get(kind);
        } catch (RuntimeException e) {
            throw new ParameterResolutionException("cannot provide the " + kind.scriptName()
                    + " ClickHouse server for " + parameterContext.getParameter() + ": " + e.getMessage(), e);
        }
        extensionContext.getTestClass().ifPresent(testClass ->
                USED.computeIfAbsent(testClass, c -> ConcurrentHashMap.newKeySet()).add(kind));
        return server;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        Set<Kind> kinds = EnumSet.noneOf(Kind.class);
        for (Optional<ExtensionContext> c = Optional.of(context); c.isPresent(); c = c.get().getParent()) {
            c.get().getTestClass().map(USED::get).ifPresent(kinds::addAll);
        }
        for (Kind kind : kinds) {
            ClickHouseServers.get(kind);
        }
    }
}
