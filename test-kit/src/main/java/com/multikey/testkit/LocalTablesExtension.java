package com.multikey.testkit;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test class {@link LocalTables}: the local DynamoDB engine with the template's tables, started before the
 * class's first test and stopped after its last, injected wherever a {@code LocalTables} parameter is
 * declared (constructor, {@code @BeforeAll}, {@code @BeforeEach}, test method).
 *
 * <p>{@code @ExtendWith(LocalTablesExtension.class)} drops and creates the tables anew before each test, so
 * no test sees another's items. A class whose tests share data loaded once in {@code @BeforeAll} registers
 * {@code @RegisterExtension static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();}.
 */
public final class LocalTablesExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LocalTablesExtension.class);

    private final boolean freshForEachTest;

    /** Tables created anew before each test. */
    public LocalTablesExtension() {
        this(true);
    }

    private LocalTablesExtension(boolean freshForEachTest) {
        this.freshForEachTest = freshForEachTest;
    }

    /** Tables created once for the class: what one test writes, the next one sees. */
    public static LocalTablesExtension createdOnce() {
        return new LocalTablesExtension(false);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        tables(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (freshForEachTest) {
            tables(context).reset();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == LocalTables.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return tables(context);
    }

    /**
     * The class's tables: {@code beforeAll} starts them in the class's store, which closes them when the
     * class is done; a test's store finds them there.
     */
    private static LocalTables tables(ExtensionContext context) {
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(LocalTables.class, type -> LocalTables.start(), LocalTables.class);
    }
}
