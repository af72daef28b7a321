package com.multikey.indexer;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test class an {@link IndexerStack}: started before the class's first test, closed after its last,
 * reset (tables created anew, metrics forgotten) before each test, and injected wherever an
 * {@code IndexerStack} parameter is declared.
 */
final class IndexerStackExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(IndexerStackExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        stack(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        stack(context).reset();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == IndexerStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return stack(context);
    }

    /**
     * The class's stack: {@code beforeAll} starts it in the class's store, which closes it when the class
     * is done; a test's store finds it there.
     */
    private static IndexerStack stack(ExtensionContext context) {
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(IndexerStack.class, type -> new IndexerStack(), IndexerStack.class);
    }
}
