package com.multikey.dynamodb.api;

import com.multikey.dynamodb.EngineException;

import java.util.List;

/** TransactionCanceledException with one reason per item of the request, in the request's order. */
public final class TransactionCanceled extends EngineException {

    private final transient List<CancellationReason> reasons;

    TransactionCanceled(List<CancellationReason> reasons) {
        super("TransactionCanceledException", 400, "Transaction cancelled, please refer cancellation reasons for specific reasons "
                + reasons.stream().map(CancellationReason::code).toList());
        this.reasons = List.copyOf(reasons);
    }

    public List<CancellationReason> reasons() {
        return reasons;
    }
}
