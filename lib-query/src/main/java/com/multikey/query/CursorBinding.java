package com.multikey.query;

/**
 * Opens a request's cursor under the request's binding ({@link PageRequest#identity()}, its groups' numbers canonical),
 * or else under the binding of its groups as spelled ({@link PageRequest#identityAsSpelled()}), which cursors made before
 * the binding was canonical hold: such a cursor still opens for the request spelled as it was made, within its lifetime.
 */
final class CursorBinding {

    private CursorBinding() {
    }

    /** @throws QueryException with {@link CursorSealer#REFUSED} when the cursor opens under neither binding */
    static byte[] open(CursorSealer sealer, String text, PageRequest request) {
        String binding = request.identity();
        try {
            return sealer.open(text, binding);
        } catch (QueryException refused) {
            String asSpelled = request.identityAsSpelled();
            if (asSpelled.equals(binding)) {
                throw refused;
            }
            return sealer.open(text, asSpelled);
        }
    }
}
