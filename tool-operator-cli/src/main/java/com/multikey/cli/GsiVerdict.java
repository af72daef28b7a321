package com.multikey.cli;

import java.util.List;

/** Whether a native global secondary index could serve a declared index. */
sealed interface GsiVerdict {

    /**
     * A GSI can serve it.
     *
     * @param template    the GSI (and its attribute definitions) to paste into a CloudFormation or SAM template
     * @param differences what the GSI would not do that the index does
     */
    record Native(String template, List<String> differences) implements GsiVerdict {
        public Native {
            differences = List.copyOf(differences);
        }
    }

    /** No GSI can serve it, for these reasons (every one that applies). */
    record NotNative(List<String> reasons) implements GsiVerdict {
        public NotNative {
            reasons = List.copyOf(reasons);
        }
    }
}
