package dev.clickhousetcp.spring.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A {@code FailureAnalyzer} for {@link ClickHouseTcpConfigurationException}: reports which
 * {@code clickhouse.tcp.*} property is wrong and how to fix it.
 */
class ClickHouseTcpConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<ClickHouseTcpConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ClickHouseTcpConfigurationException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.getAction(), cause);
    }

}
