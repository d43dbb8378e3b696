package dev.clickhousetcp.fuzz;

import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.io.PrintWriter;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

/**
 * Runs one {@code @FuzzTest} method on the JUnit Platform, for {@code scripts/fuzz.sh}: Jazzer fuzzes
 * only one fuzz test per JVM, so the script starts one JVM per target with {@code JAZZER_FUZZ=1} and
 * the test class path. Usage: {@code FuzzLauncher <class>#<method>}; exits 0 when the test passed
 * (no finding), 1 otherwise, 2 on bad arguments or when no test ran.
 */
public final class FuzzLauncher {
    private FuzzLauncher() {
    }

    public static void main(String[] args) {
        if (args.length != 1 || !args[0].contains("#")) {
            System.err.println("usage: FuzzLauncher <fully.qualified.Class>#<method>");
            System.exit(2);
        }
        String className = args[0].substring(0, args[0].indexOf('#'));
        String methodName = args[0].substring(args[0].indexOf('#') + 1);
        java.lang.reflect.Method method;
        Class<?> testClass;
        try {
            testClass = Class.forName(className);
            method = java.util.Arrays.stream(testClass.getDeclaredMethods())
                    .filter(m -> m.getName().equals(methodName)).findFirst().orElse(null);
        } catch (ClassNotFoundException e) {
            method = null;
            testClass = null;
        }
        if (method == null) {
            System.err.println("no method " + args[0]);
            System.exit(2);
        }
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectMethod(testClass, method))
                .build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(request, listener);
        TestExecutionSummary summary = listener.getSummary();
        PrintWriter out = new PrintWriter(System.out, true);
        summary.printFailuresTo(out, 40);
        out.printf("fuzz target %s: %d run, %d failed%n", args[0], summary.getTestsStartedCount(),
                summary.getTotalFailureCount());
        out.flush();
        if (summary.getTestsStartedCount() == 0) {
            System.exit(2);
        }
        System.exit(summary.getTotalFailureCount() == 0 ? 0 : 1);
    }
}
