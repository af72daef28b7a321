package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test only the engine can run: it injects faults, moves the engine's clock, calls the engine in-process or checks
 * its server. Skipped when the suite runs against another endpoint ({@code -Dconformance.endpoint=...}).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@DisabledIfSystemProperty(named = RemoteEndpoint.PROPERTY, matches = ".+",
        disabledReason = "only the engine can run it (faults on demand, its clock, in-process calls, its server)")
@interface EngineOnly {

    /** What of the engine the test needs. */
    String value();
}
