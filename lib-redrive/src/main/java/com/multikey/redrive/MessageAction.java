package com.multikey.redrive;

/** What redrive does with one message of a queue. */
interface MessageAction {

    /** What came of a message. */
    sealed interface Result {
        /** The work succeeded (or, in a dry run, would be done): the message may go. */
        record Done(String what) implements Result {
        }

        /** The records the message names are no longer in the stream. */
        record Gone(String range, String reason, String advice) implements Result {
        }

        /** The work failed; the message stays. */
        record Failed(String reason) implements Result {
        }
    }

    /**
     * @throws IllegalArgumentException when the message is not what this queue holds
     */
    Result handle(String body, boolean dryRun);
}
